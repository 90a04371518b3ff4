//! The sections between the auction and the play: `call` (the partner's card), `discard`, `talon`,
//! `buy`, `sit-out-by-choice` and `steal`.

use super::*;

impl Compiler {
    /// `forbid "label" = formula of options`: cards that may never be discarded, following options
    /// (the Danish game forbids the honours, the Leipzig rules of 1754 only the kings). The formula
    /// must give a set of cards for every choice of the options it reads and read nothing else of the
    /// game; the class holds the default options' cards, and each game sets its own
    /// (`Settings::forbid`).
    pub(super) fn forbid_following(&mut self, st: &Stmt, d: &mut Discard) {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e else { return };
        let Some(combinations) = self.each_choice(&read, st, "the set of forbidden cards") else { return };
        let mut at_default = CardSet::EMPTY;
        for (k, (options, with)) in combinations.into_iter().enumerate() {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Cards(set)) if k == 0 => at_default = set,
                Ok(Value::Cards(_)) => {}
                Ok(other) => {
                    self.err_at(st, format!("with {with}: the forbidden cards must be a set of cards, not {}", other.type_name()));
                    return;
                }
                Err(_) => {
                    self.err_at(st, "the forbidden cards may follow options, and nothing else of the game (players, `let`s, the deal)");
                    return;
                }
            }
        }
        let label = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "these cards".into());
        d.forbid_by_option.push((d.forbid.len(), e));
        d.forbid.push(CardClass { cards: at_default, label, clause: self.clause(st, "discard.forbid") });
    }

    pub(super) fn card_class(&mut self, st: &Stmt, rule: &str) -> Option<CardClass> {
        let cards = self.class_value(st, CardSet::full())?;
        let label = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "these cards".into());
        Some(CardClass { cards, label, clause: self.clause(st, rule) })
    }

    pub(super) fn partner_call(&mut self, s: &Stmt) -> Call {
        let mut c = Call { levels: vec![], clause: self.clause(s, "call"), opening_lead_excludes: None, callable_levels: None };
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "levels" => match self.value(st, Ctx::Class) {
                    Some(Expr::Const(Value::List(items))) => {
                        for item in items.iter() {
                            match item {
                                Value::Cards(set) => c.levels.push(*set),
                                _ => self.err_at(st, "`levels` is a list of card sets: `[rank(K), rank(Q), rank(C), rank(J)]`"),
                            }
                        }
                        c.clause = self.clause(st, "call.levels");
                    }
                    Some(_) => self.err_at(st, "`levels` is a list of card sets: `[rank(K), rank(Q), rank(C), rank(J)]`"),
                    None => {}
                },
                "opening-lead-excludes" => c.opening_lead_excludes = self.stated(st, Ctx::Called, "call"),
                "callable-levels" => c.callable_levels = self.stated(st, Ctx::AfterAuction, "call"),
                other => self.err_at(st, format!("unknown call statement `{other}`; expected levels, opening-lead-excludes or callable-levels")),
            }
        }
        if c.levels.is_empty() {
            self.err_at(s, "the call needs `levels = [...]`: which cards the taker may call");
        }
        c
    }

    pub(super) fn discard(&mut self, s: &Stmt) -> Discard {
        let mut d = Discard {
            taker: None,
            dealer: None,
            others: None,
            clause: self.clause(s, "discard"),
            forbid: vec![],
            unless_unavoidable: None,
            penalize: None,
            requires: vec![],
            goes_to: None,
            forbid_by_option: vec![],
            size_fault: None,
        };
        self.settings(s);
        let mut penalty = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "taker" => d.taker = self.value(st, Ctx::AfterAuction),
                "dealer" => d.dealer = self.value(st, Ctx::AfterAuction),
                "others" => d.others = self.value(st, Ctx::AfterAuction),
                "forbid" if st.value.as_ref().is_some_and(reads_option) => self.forbid_following(st, &mut d),
                "forbid" => d.forbid.extend(self.card_class(st, "discard.forbid")),
                "unless-unavoidable" => d.unless_unavoidable = self.card_class(st, "discard.unless-unavoidable"),
                "penalize" => d.penalize = self.card_class(st, "discard.penalize").map(|c| (c.clone(), Expr::Const(Value::Num(Q::ZERO)), c.clause)),
                "penalty" => penalty = self.stated(st, Ctx::Discard, "discard"),
                "require" => {
                    let label = st.args.first().map(|w| w.text.clone()).unwrap_or_default();
                    let label = self.label(st, label);
                    if let Some(e) = self.condition(st, Ctx::Discard) {
                        let rule = format!("discard.require.{}", d.requires.len() + 1);
                        d.requires.push((label, e, self.clause(st, rule)));
                    }
                }
                "goes-to" => {
                    // Evaluated at scoring, once the tricks are known, for each discarder (`player`).
                    if let Some(w) = self.word(st, Ctx::PerPlayer) {
                        d.goes_to = Some((w, self.clause(st, "discard.goes-to")));
                    }
                }
                "fault" => d.size_fault = self.discard_fault(st),
                other => self.err_at(
                    st,
                    format!("unknown discard statement `{other}`; expected taker, dealer, others, forbid, unless-unavoidable, penalize, penalty, require, goes-to or fault"),
                ),
            }
        }
        match (&mut d.penalize, penalty) {
            (Some(p), Some((e, c))) => {
                p.1 = e;
                p.2 = c;
            }
            (None, Some(_)) | (Some(_), None) => self.err_at(s, "`penalize` (the cards) and `penalty` (what each opponent is paid) go together"),
            _ => {}
        }
        d
    }

    /// `fault size "label" [by-side] ends-deal = amount`: a discard of the wrong size is a fault that
    /// ends the deal. Only the size (the other rules of a discard are refused as ever), and the deal
    /// must end (the hands no longer fit the tricks): `ends-deal` is required.
    fn discard_fault(&mut self, st: &Stmt) -> Option<DiscardFault> {
        const FORM: &str = "a discard's fault is written `fault size \"label\" [by-side] ends-deal = amount`";
        let (Some(what), Some(label)) = (st.args.first(), st.args.get(1).filter(|w| w.quoted)) else {
            self.err_at(st, FORM);
            return None;
        };
        if what.text != "size" || what.quoted {
            self.err_at(
                st,
                format!("`fault {}`: a discard's fault is its size (`fault size`), a discard of the wrong number of cards; the discard's other rules refuse it", what.text),
            );
            return None;
        }
        let (mut by_side, mut ends_deal) = (false, false);
        for w in &st.args[2..] {
            match w.text.as_str() {
                "by-side" if !by_side && !w.quoted => by_side = true,
                "ends-deal" if !ends_deal && !w.quoted => ends_deal = true,
                _ => {
                    self.err_at(st, FORM);
                    return None;
                }
            }
        }
        if !ends_deal {
            self.err_at(st, "`fault size` needs `ends-deal`: after a discard of the wrong size the hands no longer fit the tricks, so the deal cannot be played on");
            return None;
        }
        let amount = self.value(st, Ctx::AfterAuction)?;
        if let Expr::Const(v) = &amount {
            if !matches!(v, Value::Num(_)) {
                self.err_at(st, format!("`fault size` takes an amount, a number, not {}", v.type_name()));
                return None;
            }
        }
        Some(DiscardFault { label: label.text.as_str().into(), amount, by_side, clause: self.clause(st, "discard.fault.size") })
    }

    pub(super) fn talon(&mut self, s: &Stmt) -> Talon {
        let mut t = Talon {
            packets: Expr::Const(Value::Num(Q::ONE)),
            rest: None,
            rest_per_packet: false,
            discard: None,
            split: None,
            given: None,
            unseen: None,
            clause: self.clause(s, "talon"),
        };
        self.settings(s);
        let mut packets = false;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "packets" => {
                    packets = true;
                    t.packets = self.value(st, Ctx::AfterAuction).unwrap_or(t.packets);
                }
                "rest" => {
                    if let Some(w) = self.word(st, Ctx::Packet) {
                        t.rest_per_packet = reads_game(&w.expr());
                        t.rest = Some((w, self.clause(st, "talon.rest")));
                    }
                }
                "discard" => t.discard = self.word(st, Ctx::AfterAuction),
                "given" => {
                    // A packet's number: a constant is checked here, a formula when a game is set up.
                    match self.value(st, Ctx::AfterAuction) {
                        Some(Expr::Const(Value::Num(q))) if !q.is_integer() || q < Q::ZERO => {
                            self.err_at(st, format!("`given` is the number of a packet of the talon (1, 2, ...), not {q}"))
                        }
                        Some(Expr::Const(Value::Num(q))) if q == Q::ZERO => self.err_at(
                            st,
                            "`given = 0` leaves the taker his choice, as without it, so it would change nothing; remove it (0 is for a formula that gives no packet in some games)",
                        ),
                        Some(Expr::Const(v)) if !matches!(v, Value::Num(_)) => {
                            self.err_at(st, format!("`given` is the number of a packet of the talon (1, 2, ...), not {}", v.type_name()))
                        }
                        Some(e) => t.given = Some((e, self.clause(st, "talon.given"))),
                        None => {}
                    }
                }
                "unseen" => t.unseen = Some(self.clause(st, "talon.unseen")),
                "split" => {
                    // A number of cards: a constant is checked here, a formula when a game is set up.
                    match self.value(st, Ctx::AfterAuction) {
                        Some(Expr::Const(Value::Num(q))) if !q.is_integer() || q <= Q::ZERO => {
                            self.err_at(st, format!("`split` is how many cards the taker lays away before he sees the talon, a whole number from 1, not {q}"))
                        }
                        Some(Expr::Const(v)) if !matches!(v, Value::Num(_)) => {
                            self.err_at(st, format!("`split` is how many cards the taker lays away before he sees the talon, a whole number, not {}", v.type_name()))
                        }
                        Some(e) => t.split = Some((e, self.clause(st, "talon.split"))),
                        None => {}
                    }
                }
                other => self.err_at(st, format!("unknown talon statement `{other}`; expected packets, rest, discard, split, given or unseen")),
            }
        }
        if let (Some(_), Some(st)) = (&t.discard, s.block.iter().flatten().find(|st| st.key == "split")) {
            self.err_at(st, "`split` lays some cards away before the talon and the rest after it, which `discard` (all before, or all after) would contradict: write one of them");
        }
        if !packets {
            self.err_at(s, "the talon needs `packets = N`: in how many packets the taker sees it");
        }
        t
    }

    /// `buy { cards = N }`: how many cards the taker may buy after his discard (Droggn's Simple).
    pub(super) fn buy(&mut self, s: &Stmt) -> Buy {
        let mut b = Buy { cards: Expr::Const(Value::Num(Q::ONE)), clause: self.clause(s, "buy") };
        self.settings(s);
        let mut cards = false;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "cards" => {
                    cards = true;
                    b.cards = self.value(st, Ctx::AfterAuction).unwrap_or(b.cards);
                }
                other => self.err_at(st, format!("unknown buy statement `{other}`; expected cards")),
            }
        }
        if !cards {
            self.err_at(s, "buying needs `cards = N`: how many cards the taker may buy (a formula that may read the contract)");
        }
        b
    }

    /// `sit-out-by-choice { allowed = condition; fee = [30, 40, 50, 60] }` (Minchiate's four-player
    /// table: one may sit the deal out for a fee by his place in turn).
    pub(super) fn sit_out_choice(&mut self, s: &Stmt) -> Option<SitOutChoice> {
        let (mut allowed, mut fee) = (None, None);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "allowed" => allowed = self.value(st, Ctx::Setup).map(|e| (e, self.clause(st, "sit-out-by-choice.allowed"))),
                "fee" => {
                    let list = matches!(st.value.as_ref().map(|a| &a.kind), Some(AstKind::List(_)));
                    if !list {
                        self.err_at(st, "the fee is a list, by place in turn from first hand: `fee = [30, 40, 50, 60]`");
                    }
                    fee = self.value(st, Ctx::Setup).filter(|_| list).map(|e| (e, self.clause(st, "sit-out-by-choice.fee")));
                }
                other => self.err_at(st, format!("unknown sit-out-by-choice statement `{other}`; expected allowed or fee")),
            }
        }
        let Some((fee, fee_clause)) = fee else {
            self.err_at(s, "sitting out by choice needs `fee = [...]`: what each pays to sit out, by place in turn from first hand");
            return None;
        };
        Some(SitOutChoice { allowed, fee, fee_clause, clause: self.clause(s, "sit-out-by-choice") })
    }

    /// `steal { cards "label" = cards; cutter = "some"; dealer = "all" }` (Minchiate's *rubare*).
    pub(super) fn steal(&mut self, s: &Stmt) -> Option<Steal> {
        let (mut cards, mut cutter, mut dealer) = (None, None, None);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "cards" => cards = self.card_class(st, "steal.cards"),
                "cutter" | "dealer" => {
                    let how = match self.setting_in(st, &["some", "all"], Ctx::Setup) {
                        Some(Expr::Const(Value::Str(t))) => Some((if &*t == "all" { StealHow::All } else { StealHow::Some }, self.clause(st, format!("steal.{}", st.key)))),
                        Some(_) => {
                            self.err_at(st, format!("`{}` is written out, \"some\" or \"all\": an option cannot choose it", st.key));
                            None
                        }
                        None => None,
                    };
                    if st.key == "cutter" {
                        cutter = how;
                    } else {
                        dealer = how;
                    }
                }
                other => self.err_at(st, format!("unknown steal statement `{other}`; expected cards, cutter or dealer")),
            }
        }
        let Some(cards) = cards else {
            self.err_at(s, "stealing needs `cards \"label\" = cards`: the cards that may be stolen");
            return None;
        };
        if cutter.is_none() && dealer.is_none() {
            self.err_at(s, "stealing needs a stealer: `cutter = \"some\"` or `dealer = \"all\"` (or both)");
            return None;
        }
        Some(Steal { cards, cutter, dealer, clause: self.clause(s, "steal") })
    }
}

/// Whether a formula reads the game being played (a fact other than the players and the dog's size,
/// or a function that looks at the game), rather than only options, constants and the contract.
fn reads_game(e: &Expr) -> bool {
    match e {
        Expr::Fact(f) => !matches!(f, Fact::Players | Fact::DogSize),
        Expr::Un(_, x) => reads_game(x),
        Expr::Bin(_, a, b) | Expr::Index(a, b) => reads_game(a) || reads_game(b),
        Expr::If(a, b, c) => reads_game(a) || reads_game(b) || reads_game(c),
        Expr::List(xs) => xs.iter().any(reads_game),
        Expr::Call(f, xs) => GAME_FUNCS.contains(f) || xs.iter().any(reads_game),
        Expr::Comp { set, cond, body, .. } => reads_game(set) || cond.as_deref().is_some_and(reads_game) || body.as_deref().is_some_and(reads_game),
        Expr::Const(_) | Expr::Opt(_) | Expr::Let(_) | Expr::Var(_) | Expr::Attr(_) | Expr::Decl(_) => false,
    }
}

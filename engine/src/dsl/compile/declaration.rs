//! `declaration` blocks: what is shown, when, by whom, and what it is worth.

use super::*;

impl Compiler {
    pub(super) fn declaration(&mut self, s: &Stmt) -> Option<DeclarationKind> {
        let Some(name) = s.args.first().map(|w| w.text.clone()) else {
            self.err_at(s, "a declaration is written `declaration NAME \"label\" { ... }`");
            return None;
        };
        let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
        let mut d = DeclarationKind {
            name: name.clone(),
            label: label.into(),
            when: When::BeforePlay,
            by: DeclaredBy::Any,
            allowed: vec![],
            keeps: None,
            compulsory: None,
            compulsory_if: None,
            in_turn: None,
            in_turn_from_dealer: None,
            ends_match: None,
            ends_match_after: None,
            ends_deal: None,
            annuls: false,
            repeats: None,
            every_card_counts: None,
            from_discard: None,
            shows: CardSet::EMPTY,
            requires: vec![],
            value: None,
            paid_by: None,
            paid_by_everyone: false,
            pays: vec![],
            clause: self.clause(s, format!("declaration.{name}")),
        };
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "when" => {
                    d.when = match st.args.first().map(|w| w.text.as_str()) {
                        Some("before-play") => When::BeforePlay,
                        Some("after-discard") => When::AfterDiscard,
                        Some("first-play") => When::FirstPlay,
                        Some("after-deal") => When::AfterDeal,
                        Some("after-play") => When::AfterPlay,
                        Some("before-take") => When::BeforeTake,
                        Some("after-opening-round") => When::AfterOpeningRound,
                        _ => {
                            self.err_at(st, "`when` is before-play, after-discard or first-play (or after-deal: right after the deal, before any other move; after-opening-round: once the auction's opening round is over, before the next bid; after-play: once the last trick is played; or before-take: once the talon is shown, before the taker takes his packet)");
                            continue;
                        }
                    };
                    d.clause = self.clause(st, format!("declaration.{name}"));
                }
                "by" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("taker") => d.by = DeclaredBy::Taker,
                    Some("attack") => d.by = DeclaredBy::Attack,
                    Some("defence") => d.by = DeclaredBy::Defence,
                    Some("any") => d.by = DeclaredBy::Any,
                    Some("any-side") => d.by = DeclaredBy::AnySide,
                    _ => self.err_at(st, "`by` is `taker`, `attack`, `defence`, `any` or `any-side`"),
                },
                "allowed" => {
                    let reason = st.args.first().map(|w| self.label(st, w.text.clone()).into());
                    if let Some(condition) = self.condition(st, Ctx::Allowed) {
                        d.allowed.push(Allowed { reason, condition, clause: self.clause(st, format!("declaration.{name}.allowed")) });
                    }
                }
                "keeps" => {
                    if let Some(cards) = self.class_value(st, CardSet::full()) {
                        if cards.is_empty() {
                            self.err_at(st, "`keeps` names the cards the declarer must keep; this set has none");
                        } else {
                            d.keeps = Some((cards, self.clause(st, format!("declaration.{name}.keeps"))));
                        }
                    }
                }
                "compulsory" => {
                    if st.value.is_some() {
                        d.compulsory_if = self.condition_of_options(st, "compulsory = condition", "`compulsory` is a switch and takes no value, unless it follows options: `compulsory = condition of options`");
                    }
                    d.compulsory = Some(self.clause(st, format!("declaration.{name}.compulsory")));
                }
                "in-turn" => match st.args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().as_slice() {
                    [] if st.value.is_some() => self.err_at(st, "`in-turn` is a switch and takes no value: writing it turns it on (from first hand); to start the turn at the dealer write `in-turn from dealer`, or `in-turn from dealer = condition of options`"),
                    [] => d.in_turn = Some(self.clause(st, format!("declaration.{name}.in-turn"))),
                    ["from", "dealer"] => {
                        let cond = match st.value {
                            None => Some(Expr::Const(Value::Bool(true))),
                            Some(_) => self.condition_of_options(st, "in-turn from dealer = condition", "write `in-turn from dealer` for a turn that always starts at the dealer"),
                        };
                        if let Some(e) = cond {
                            d.in_turn_from_dealer = Some((e, self.clause(st, format!("declaration.{name}.in-turn"))));
                        }
                    }
                    _ => self.err_at(st, "`in-turn` is written `in-turn` (from first hand), `in-turn from dealer`, or `in-turn from dealer = condition of options` (from the dealer where it holds)"),
                },
                "ends-match" => match (st.args.iter().map(|w| (w.text.as_str(), w.quoted)).collect::<Vec<_>>().as_slice(), &st.value) {
                    ([], None) => d.ends_match = Some(self.clause(st, format!("declaration.{name}.ends-match"))),
                    ([("after-deal-by", false), (who, true)], Some(_)) => {
                        if let Some(when) = self.condition(st, Ctx::Hand) {
                            d.ends_match_after = Some(LastDealer { label: who.to_string(), when, clause: self.clause(st, format!("declaration.{name}.ends-match")) });
                        }
                    }
                    _ => self.err_at(
                        st,
                        "`ends-match` is a switch (the deal and the match end at the declaration), or `ends-match after-deal-by \"who\" = condition on each player and his hand as dealt` (the match ends after the next deal dealt by the player it names)",
                    ),
                },
                "ends-deal" => {
                    match st.args.iter().map(|w| (w.text.as_str(), w.quoted)).collect::<Vec<_>>().as_slice() {
                        [] if st.value.is_none() => {}
                        [("annul", false)] if st.value.is_none() => d.annuls = true,
                        _ => {
                            self.err_at(st, "`ends-deal` is a switch, or `ends-deal annul` for a deal thrown in (annulled and dealt again); it takes no other word or value");
                            continue;
                        }
                    }
                    d.ends_deal = Some(self.clause(st, format!("declaration.{name}.ends-deal")));
                }
                "repeats" if st.value.is_some() || !st.args.is_empty() => self.err_at(st, "`repeats` is a switch and takes no value: writing it lets a player make the declaration again"),
                "repeats" => d.repeats = Some(self.clause(st, format!("declaration.{name}"))),
                "every-card-counts" => d.every_card_counts = Some(self.clause(st, format!("declaration.{name}.every-card-counts"))),
                "from" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("hand") => d.from_discard = None,
                    Some("hand-and-discard") => d.from_discard = Some(self.clause(st, format!("declaration.{name}"))),
                    _ => self.err_at(
                        st,
                        "`from` is `from hand` (the default: shown cards are in the declarer's hand) or `from hand-and-discard` (in his hand or among the cards he laid away)",
                    ),
                },
                "shows" => {
                    d.shows = self.class_value(st, CardSet::full()).unwrap_or_default();
                }
                "require" => {
                    let msg = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "a requirement".into());
                    let msg = self.label(st, msg);
                    let n = d.requires.len() + 1;
                    if let Some(e) = self.value(st, Ctx::Declaration) {
                        d.requires.push((msg, e, self.clause(st, format!("declaration.{name}.require.{n}"))));
                    }
                }
                "value" => d.value = self.value(st, Ctx::Declaration),
                "paid-by" | "paid" if d.paid_by.is_some() => {
                    self.err_at(st, "a declaration says who pays it once: `paid` (each opponent), `paid by-everyone`, or `paid-by = condition`, not two of them")
                }
                "paid-by" => d.paid_by = self.value(st, Ctx::PaidBy),
                "paid" => {
                    d.paid_by = Some(Expr::Const(Value::Bool(true)));
                    match st.args.first().map(|w| w.text.as_str()) {
                        None | Some("by-opponents") => {}
                        Some("by-everyone") => d.paid_by_everyone = true,
                        Some(other) => self.err_at(st, format!("`paid {other}`: a declaration is `paid` (by each opponent) or `paid by-everyone` (by every other player)")),
                    }
                }
                "pay" => {
                    if let Some(pay) = self.declaration_pay(st, &name, d.pays.len()) {
                        d.pays.push(pay);
                    }
                }
                other => self.err_at(
                    st,
                    format!("unknown declaration statement `{other}`; expected when, by, allowed, compulsory, in-turn, ends-match, ends-deal, repeats, every-card-counts, from, shows, keeps, require, value, paid, paid-by or pay"),
                ),
            }
        }
        if d.ends_match.is_some() && d.ends_match_after.is_some() {
            if let Some(st) = s.block.iter().flatten().filter(|st| st.key == "ends-match").nth(1) {
                self.err_at(st, "a declaration ends the match once: at itself (`ends-match`) or after a later deal (`ends-match after-deal-by \"who\" = condition`), not both");
            }
        }
        self.after_deal_checks(s, &d);
        self.pay_checks(s, &d);
        self.ends_deal_checks(s, &d);
        self.every_card_counts_checks(s, &d);
        self.repeats_checks(s, &d);
        Some(d)
    }

    /// A declaration made after the deal (`when after-deal`) is a choice: nothing closes it as a
    /// compulsory one is closed (the first card), so `compulsory` with it is refused, not ignored.
    /// So is one claimed after the last trick (`when after-play`), and a `keeps` there binds nothing.
    pub(super) fn after_deal_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if d.when == When::AfterPlay {
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "compulsory" || st.key == "keeps") {
                self.err_at(
                    st,
                    format!("a declaration `when after-play` cannot have `{}`: it is claimed once the last trick is played, when no card is left to close or bind it", st.key),
                );
            }
            // Claimed at the hand's end, it reads the cards held before the discard, those laid away
            // included: a `from` would change nothing.
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "from") {
                self.err_at(st, "a declaration `when after-play` cannot have `from`: claimed at the hand's end, it already reads every card its player held before his discard, those laid away included");
            }
            return;
        }
        if !matches!(d.when, When::AfterDeal | When::AfterOpeningRound) || d.compulsory.is_none() {
            return;
        }
        if let Some(st) = s.block.iter().flatten().find(|st| st.key == "compulsory") {
            let when = if d.when == When::AfterDeal { "after-deal" } else { "after-opening-round" };
            self.err_at(st, format!("a declaration `when {when}` cannot be `compulsory`: it is a choice made before any other move, which no card closes"));
        }
    }

    /// `pay PAYERS to PAYEES ["label"] = amount` in a declaration: the score's form, between players
    /// only (a declaration pays no pot), its amount read with `payer` and `payee` for each pair, and
    /// what a declaration's `allowed` reads. The `n`th of the declaration's payments; rule
    /// `declaration.NAME.pay`, then `.pay.2`, ... for the others.
    fn declaration_pay(&mut self, st: &Stmt, name: &str, n: usize) -> Option<Pay> {
        let words: Vec<&Word> = st.args.iter().collect();
        if !(words.len() == 3 || (words.len() == 4 && words[3].quoted)) || words[1].text != "to" {
            self.err_at(st, "a declaration's payment is written `pay PAYERS to PAYEES [\"label\"] = amount`, e.g. `pay players to players = if payer == player then 10 else 0`");
            return None;
        }
        let file = st.file.clone();
        let side = |c: &mut Compiler, w: &Word| -> Option<Expr> {
            if w.text.starts_with("pot.") {
                c.err_at(st, format!("`{}`: a declaration's payment goes between players, not into or out of a pot (the score's payments reach the pots)", w.text));
                return None;
            }
            c.expr(&file, &Ast { pos: w.pos, kind: AstKind::Name(w.text.clone()) }, Ctx::DeclarationPay)
        };
        let (from, to) = (side(self, words[0]), side(self, words[2]));
        let amount = self.value(st, Ctx::DeclarationPay);
        let label = words.get(3).map(|w| w.text.clone()).unwrap_or_else(|| name.to_string());
        let rule = if n == 0 { format!("declaration.{name}.pay") } else { format!("declaration.{name}.pay.{}", n + 1) };
        Some(Pay { from: Account::Players(from?), to: Account::Players(to?), amount: amount?, label: label.into(), clause: self.clause(st, rule) })
    }

    /// A declaration made right after the deal (`when after-deal`) comes before the auction: a payment
    /// of it that reads the contract, the sides or the card called could never be worked out, and is
    /// refused.
    fn pay_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if !matches!(d.when, When::AfterDeal | When::AfterOpeningRound) {
            return;
        }
        let when = if d.when == When::AfterDeal { "after-deal" } else { "after-opening-round" };
        let late = |e: &Expr| [Fact::Taker, Fact::Partner, Fact::Attack, Fact::Defence, Fact::Called].into_iter().any(|f| e.mentions(f)) || reads_contract(e);
        for (pay, st) in d.pays.iter().zip(s.block.iter().flatten().filter(|st| st.key == "pay")) {
            let Account::Players(from) = &pay.from else { continue };
            let Account::Players(to) = &pay.to else { continue };
            if late(from) || late(to) || late(&pay.amount) {
                self.err_at(
                    st,
                    format!(
                        "a declaration `when {when}` cannot pay by the contract, the sides or the card called: it is made before the auction is won, when none of them is known"
                    ),
                );
            }
        }
    }

    /// A declaration that ends the deal unplayed (`ends-deal`) ends it there: with `ends-match` (which
    /// ends it scored), after the last trick (nothing is left to end), `compulsory` (every holder would
    /// end every deal) or `keeps` (no card is played after it) it could never apply as written, and is
    /// refused. So is a `called` in the `allowed` of a declaration made right after the deal, before
    /// any card is called.
    pub(super) fn ends_deal_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if d.ends_deal.is_some() {
            let why = |key: &str| match key {
                "ends-match" => Some("`ends-match` ends the deal scored on what was played, and the match with it; `ends-deal` ends it unplayed, the match going on: say one"),
                "compulsory" => Some("a declaration that ends the deal unplayed is a choice; made compulsory, every player who could make it would end every deal"),
                "keeps" => Some("no card is played after a declaration that ends the deal, so `keeps` would bind nothing"),
                _ => None,
            };
            // `ends-match after-deal-by` ends no deal, and goes with one ended unplayed.
            if let Some((st, why)) = s.block.iter().flatten().filter(|st| st.key != "ends-match" || st.args.is_empty()).find_map(|st| why(&st.key).map(|w| (st, w))) {
                self.err_at(st, format!("`ends-deal` cannot go with `{}`: {why}", st.key));
            }
            if d.annuls {
                let pays = |key: &str| matches!(key, "paid" | "paid-by" | "pay");
                if let Some(st) = s.block.iter().flatten().find(|st| pays(&st.key)) {
                    self.err_at(st, format!("`ends-deal annul` cannot go with `{}`: a deal thrown in is void, and pays nothing", st.key));
                }
            }
            if d.when == When::AfterPlay {
                if let Some(st) = s.block.iter().flatten().find(|st| st.key == "ends-deal") {
                    self.err_at(st, "`ends-deal` cannot be claimed `when after-play`: once the last trick is played the deal is over, with nothing left to end unplayed");
                }
            }
        }
        if d.when == When::AfterDeal && d.allowed.iter().any(|a| a.condition.mentions(Fact::Called)) {
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "allowed" && st.value.as_ref().is_some_and(|v| reads::mentions(v, "called"))) {
                self.err_at(st, "a declaration `when after-deal` cannot read `called` in its `allowed`: it is made before the auction, when no card has been called");
            }
        }
        // Made in the auction, before anyone has won it: the contract, the sides and the card called
        // are unknown.
        if d.when == When::AfterOpeningRound {
            let late = |e: &Expr| [Fact::Taker, Fact::Partner, Fact::Attack, Fact::Defence, Fact::Called].into_iter().any(|f| e.mentions(f)) || reads_contract(e);
            for (a, st) in d.allowed.iter().zip(s.block.iter().flatten().filter(|st| st.key == "allowed")) {
                if late(&a.condition) {
                    self.err_at(st, "a declaration `when after-opening-round` cannot read the contract, the sides or the card called in its `allowed`: it is made in the auction, before anyone has won it");
                }
            }
        }
    }

    /// A declaration made again (`repeats`) is an announcement each making of which counts (a double
    /// answered by a double, without limit): with what is made or owed once it could never apply as
    /// written, and is refused: a show (its cards are shown once), `compulsory` (owed once, closed at
    /// a card), `in-turn` (one turn each), `ends-deal` and `ends-match` (nothing follows the first),
    /// and a claim after the last trick.
    pub(super) fn repeats_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if d.repeats.is_none() {
            return;
        }
        let why = |key: &str| match key {
            "shows" => Some("a show lays its cards out once; a declaration made again is an announcement, showing no card"),
            "compulsory" => Some("a compulsory declaration is owed once, and the card that closes it could not tell how many times"),
            "in-turn" => Some("a declaration in turn is made once, at its player's turn"),
            "ends-deal" | "ends-match" => Some("nothing may follow a declaration that ends the deal, so it could never be made again"),
            _ => None,
        };
        // `ends-match after-deal-by` ends no deal: the deal goes on after it.
        if let Some((st, why)) = s.block.iter().flatten().filter(|st| st.key != "ends-match" || st.args.is_empty()).find_map(|st| why(&st.key).map(|w| (st, w))) {
            self.err_at(st, format!("`repeats` cannot go with `{}`: {why}", st.key));
        }
        if d.by == DeclaredBy::AnySide {
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "by") {
                self.err_at(
                    st,
                    "`repeats` cannot go with `by any-side`: each side declares that once; a declaration made again says who makes it with `by` and its order with `require`",
                );
            }
        }
        if d.when == When::AfterPlay {
            if let Some(st) = s.block.iter().flatten().find(|st| st.key == "repeats") {
                self.err_at(st, "`repeats` cannot go with `when after-play`: a claim at the hand's end is made once");
            }
        }
    }

    /// `every-card-counts` weighs each shown card by the value: a declaration without cards shown or
    /// without a value has nothing to weigh, and the switch is refused, not ignored.
    pub(super) fn every_card_counts_checks(&mut self, s: &Stmt, d: &DeclarationKind) {
        if d.every_card_counts.is_none() || (!d.shows.is_empty() && d.value.is_some()) {
            return;
        }
        if let Some(st) = s.block.iter().flatten().find(|st| st.key == "every-card-counts") {
            self.err_at(st, "`every-card-counts` needs `shows` and a `value`: a card counts when the value drops without it");
        }
    }

    /// Declarations of one timing made in turn are ordered by one another: a player declares none
    /// after a player later in turn has declared one. So under every choice of the options, those
    /// in turn must start their turn at one seat; `in-turn` (from first hand) beside `in-turn from
    /// dealer` would order them two ways, and is refused rather than read one of them.
    pub(super) fn in_turn_checks(&mut self, stmts: &[Stmt], declarations: &[DeclarationKind]) {
        let mut read = BTreeSet::new();
        for d in declarations {
            if let Some((e, _)) = &d.in_turn_from_dealer {
                options_in(e, &mut read);
            }
        }
        let Some(first) = stmts.iter().filter(|s| s.key == "declaration").flat_map(|s| s.block.iter().flatten()).find(|st| st.key == "in-turn") else { return };
        let Some(choices) = self.each_choice(&read.into_iter().collect::<Vec<_>>(), first, "the turn of the declarations made `in-turn from dealer = condition`") else { return };
        for (options, with) in choices {
            // Each declaration in turn with the seat its turn starts at, in the order written.
            let starts: Vec<(&DeclarationKind, &str)> = declarations
                .iter()
                .filter_map(|d| {
                    let from_dealer = d.in_turn_from_dealer.as_ref().is_some_and(|(e, _)| matches!(eval(e, &Chosen(&options)), Ok(Value::Bool(true))));
                    match (from_dealer, &d.in_turn) {
                        (true, _) => Some((d, "the dealer")),
                        (false, Some(_)) => Some((d, "first hand")),
                        (false, None) => None,
                    }
                })
                .collect();
            for (i, &(d, start)) in starts.iter().enumerate() {
                let Some(&(first, other)) = starts[..i].iter().find(|(e, other)| e.when == d.when && *other != start) else { continue };
                let at = stmts.iter().filter(|s| s.key == "declaration").find(|s| s.args.first().is_some_and(|w| w.text == d.name));
                let Some(st) = at.and_then(|s| s.block.iter().flatten().find(|st| st.key == "in-turn")) else { continue };
                let with = if with.is_empty() { String::new() } else { format!("with {with}, ") };
                self.err_at(
                    st,
                    format!(
                        "{with}declaration `{}` is made in turn from {start} and `{}`, of the same timing, in turn from {other}: declarations of one timing made in turn are ordered by one another, so their turn starts at one seat",
                        d.name, first.name
                    ),
                );
                return;
            }
        }
    }
}

/// Whether a compiled formula reads the contract (`contract.ATTR`, `contract.name`).
fn reads_contract(e: &Expr) -> bool {
    match e {
        Expr::Attr(_) => true,
        Expr::Un(_, x) => reads_contract(x),
        Expr::Bin(_, a, b) | Expr::Index(a, b) => reads_contract(a) || reads_contract(b),
        Expr::If(a, b, c) => reads_contract(a) || reads_contract(b) || reads_contract(c),
        Expr::List(xs) | Expr::Call(_, xs) => xs.iter().any(reads_contract),
        Expr::Comp { set, cond, body, .. } => reads_contract(set) || cond.as_deref().is_some_and(reads_contract) || body.as_deref().is_some_and(reads_contract),
        _ => false,
    }
}

//! The table and what comes before the play: `players`, `deal`, `bidding` (with the partner call,
//! the discard, the talon, buying, sitting out and stealing).

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

    /// `hold = formula of options`: the hold's kind following options, "forehand" or "seniority" for
    /// every choice of the options it reads (and it must read one).
    pub(super) fn hold_following(&mut self, st: &Stmt) -> Option<Expr> {
        let (e, read) = self.setting_and_options_read(st);
        let e = e?;
        if read.is_empty() {
            self.err_at(st, "`hold = formula` is for a hold that follows options, and this formula reads none: write `hold forehand` or `hold seniority`");
            return None;
        }
        let combinations = self.each_choice(&read, st, "the hold")?;
        for (options, with) in combinations {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Str(w)) if &*w == "forehand" || &*w == "seniority" => {}
                Ok(other) => {
                    let not = if let Value::Str(w) = &other { format!("\"{w}\"") } else { other.type_name().to_string() };
                    self.err_at(st, format!("with {with}: `hold = formula` must give \"forehand\" or \"seniority\", not {not}"));
                    return None;
                }
                Err(_) => {
                    self.err_at(st, "the hold may follow options, and nothing else of the game (players, `let`s, the deal)");
                    return None;
                }
            }
        }
        Some(e)
    }

    pub(super) fn players(&mut self, s: Option<&Stmt>) -> ((usize, usize), Clause) {
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset does not say how many play: `players 4` or `players 2..6`");
            return ((0, 0), Clause { rule: "players".into(), at: "".into(), source: None, source_file: None });
        };
        let text = s.args.first().map(|w| w.text.clone()).unwrap_or_default();
        let range = match text.split_once("..") {
            Some((a, b)) => a.parse().ok().zip(b.parse().ok()),
            None => text.parse().ok().map(|n| (n, n)),
        };
        let clause = self.clause(s, "players");
        match range {
            Some((a, b)) if (2..=8).contains(&a) && a <= b && b <= 8 => ((a, b), clause),
            _ => {
                self.err_at(s, format!("`players {text}`: give a number of players (2 to 8) or a range like 2..6"));
                ((0, 0), clause)
            }
        }
    }

    pub(super) fn deal(&mut self, s: Option<&Stmt>) -> Deal {
        let blank = |clause| Deal {
            hand: Expr::Const(Value::Num(Q::ZERO)),
            dealer: None,
            dog: None,
            cut: None,
            piles: None,
            packets: None,
            dealer_packets: None,
            dog_packets: None,
            dog_apart: None,
            dog_after: None,
            requires: vec![],
            next_dealer: None,
            next_dealer_annulled: None,
            clause,
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `deal { ... }` section");
            return blank(Clause { rule: "deal".into(), at: "".into(), source: None, source_file: None });
        };
        let mut d = blank(self.clause(s, "deal"));
        self.settings(s);
        let (mut piles, mut pile_size) = (None, None);
        let mut dog_after = None;
        let mut has_hand = false;
        let mut dealer_packets = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "hand" => {
                    has_hand = true;
                    d.hand = self.value(st, Ctx::Setup).unwrap_or(Expr::Const(Value::Num(Q::ZERO)));
                }
                "dealer" => d.dealer = self.value(st, Ctx::Setup),
                "dog" => d.dog = self.value(st, Ctx::Setup),
                "cut" => d.cut = Some(self.clause(st, "deal.cut")),
                "piles" => piles = self.value(st, Ctx::Setup),
                "pile_size" => pile_size = self.value(st, Ctx::Setup),
                "packets" => {
                    self.packet_orders_written(st);
                    d.packets = self.stated(st, Ctx::Setup, "deal");
                }
                "dealer_packets" => {
                    dealer_packets = Some(st);
                    self.packet_orders_written(st);
                    d.dealer_packets = self.stated(st, Ctx::Setup, "deal");
                }
                "dog_packets" => d.dog_packets = self.stated(st, Ctx::Setup, "deal"),
                "dog_apart" => d.dog_apart = self.stated(st, Ctx::Setup, "deal"),
                "dog_after" => dog_after = Some(st),
                "require" => {
                    let label = st.args.first().map(|w| w.text.clone()).unwrap_or_default();
                    let label = self.label(st, label);
                    if let Some(e) = self.condition(st, Ctx::Dealt) {
                        let rule = format!("deal.require.{}", d.requires.len() + 1);
                        d.requires.push((label, e, self.clause(st, rule)));
                    }
                }
                "next_dealer" => d.next_dealer = self.word(st, Ctx::Setup).map(|w| (w, self.clause(st, "deal.next_dealer"))),
                "next_dealer_annulled" => d.next_dealer_annulled = self.word(st, Ctx::Setup).map(|w| (w, self.clause(st, "deal.next_dealer_annulled"))),
                other => self.err_at(
                    st,
                    format!(
                        "unknown deal statement `{other}`; expected hand, dealer, dog, cut, piles, pile_size, packets, dealer_packets, dog_packets, dog_apart, dog_after, require, next_dealer or next_dealer_annulled"
                    ),
                ),
            }
        }
        match (piles, pile_size) {
            (Some(a), Some(b)) => d.piles = Some((a, b)),
            (None, None) => {}
            _ => self.err_at(s, "`piles` (how many before each player) and `pile_size` (cards in each) go together"),
        }
        if !has_hand {
            self.err_at(s, "the deal needs `hand = N`, the number of cards each player receives");
        }
        if let (Some(st), None) = (dealer_packets, &d.packets) {
            self.err_at(st, "`dealer_packets` (the dealer's packets, when they differ from the others') needs `packets`");
        }
        if let Some(st) = dog_after {
            match &d.packets {
                Some(_) => d.dog_after = self.stated(st, Ctx::Setup, "deal"),
                None => self.err_at(st, "`dog_after` (after how many rounds of packets the dog is dealt) needs `packets`"),
            }
        }
        d
    }

    /// The orders the dealer chooses among, as written (`packets = [[5, 6], [6, 5]]`, in any branch
    /// of an `if`): a list of orders holds only lists of packets, two or more, each its own. What a
    /// formula works out is checked when a game is set up.
    fn packet_orders_written(&mut self, st: &Stmt) {
        let mut lists = vec![];
        let mut at = st.value.iter().collect::<Vec<_>>();
        while let Some(a) = at.pop() {
            match &a.kind {
                AstKind::If(_, yes, no) => at.extend([&**yes, &**no]),
                AstKind::List(items) if items.iter().any(|x| matches!(x.kind, AstKind::List(_))) => lists.push(items),
                _ => {}
            }
        }
        for items in lists {
            let key = &st.key;
            if items.iter().any(|x| !matches!(x.kind, AstKind::List(_))) {
                self.err_at(
                    st,
                    format!("`{key}`: a list of orders for the dealer to choose from holds only orders, each a list of packets (`[[5, 6], [6, 5]]`), not numbers beside them"),
                );
            } else if items.iter().any(|x| matches!(&x.kind, AstKind::List(o) if o.iter().any(|y| matches!(y.kind, AstKind::List(_))))) {
                self.err_at(st, format!("`{key}`: an order is a list of packets, each a number of cards, not a list of lists"));
            } else if items.len() < 2 {
                self.err_at(st, format!("`{key}`: one order to choose from leaves the dealer no choice; write the order alone (`[5, 6]`, not `[[5, 6]]`)"));
            } else if let Some(i) = (1..items.len()).find(|&i| items[..i].iter().any(|x| same_list(x, &items[i]))) {
                self.err_at(
                    st,
                    format!(
                        "`{key}`: the dealer's orders to choose from are each their own, and order {} is order {} again",
                        i + 1,
                        items[..i].iter().position(|x| same_list(x, &items[i])).unwrap_or(0) + 1
                    ),
                );
            }
        }
    }

    /// Who deals next names only who a deal can have: a taker where there is bidding, and after an
    /// annulled deal only in a ruleset that annuls some (`annul`, `all-pass annul`), which has no
    /// taker.
    pub(super) fn next_dealer_agrees(&mut self, deal: Option<&Stmt>, d: &Deal, bidding: bool, annuls: bool) {
        let written = |key: &str| deal.and_then(|s| s.block.iter().flatten().find(|st| st.key == key));
        if let (Some((w, _)), Some(st)) = (&d.next_dealer, written("next_dealer")) {
            if w.may_be(NextDealer::Taker) && !bidding {
                self.err_at(st, "`next_dealer = \"taker\"`: the taker deals next, so the ruleset needs `bidding`");
            }
        }
        if let (Some((w, _)), Some(st)) = (&d.next_dealer_annulled, written("next_dealer_annulled")) {
            if w.may_be(NextDealer::Taker) {
                self.err_at(st, "`next_dealer_annulled` cannot be \"taker\": an annulled deal has no taker");
            }
            if !annuls {
                self.err_at(
                    st,
                    "`next_dealer_annulled` says who deals after an annulled deal, and this ruleset annuls none (no `annul`, no `all-pass annul`): it would never apply",
                );
            }
        }
    }

    pub(super) fn annulment(&mut self, s: &Stmt) -> Option<Annulment> {
        let Some(name) = s.args.first().map(|w| w.text.clone()) else {
            self.err_at(s, "an annulment is written `annul NAME \"what happened\" = condition`");
            return None;
        };
        let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
        let when = self.value(s, Ctx::Hand)?;
        Some(Annulment { clause: self.clause(s, format!("annul.{name}")), name, label, when })
    }

    pub(super) fn bidding(&mut self, s: &Stmt) -> Bidding {
        let mut b = Bidding {
            turns: Turns::Once,
            turns_clause: self.clause(s, "bidding"),
            contracts: vec![],
            all_pass: None,
            all_pass_play: None,
            all_pass_by: vec![],
            reserve: None,
            hold: None,
            hold_by: None,
            no_reraise: None,
            must_bid: vec![],
            first_turn: None,
            step: None,
            step_lowest: false,
            opening_round: None,
            closing: None,
            out_of_turn: None,
            instead: vec![],
            raise: vec![],
        };
        let mut must_bids = vec![];
        let mut insteads = vec![];
        let mut raises = vec![];
        let mut listed = vec![];
        let mut all_pass_play = None;
        let mut all_pass_by = vec![];
        let mut all_pass_last: Option<&Stmt> = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "turns" => {
                    b.turns = match st.args.first().map(|w| w.text.as_str()) {
                        Some("once") => Turns::Once,
                        Some("until-one-left") => Turns::UntilOneLeft,
                        Some("rounds") => Turns::Rounds,
                        _ => {
                            self.err_at(
                                st,
                                "`turns once` (each player speaks once), `turns until-one-left` (bidding with immediate hold: the player outbid answers at once or leaves) \
                                 or `turns rounds` (round and round until one is left; a pass is final)",
                            );
                            Turns::Once
                        }
                    };
                    b.turns_clause = self.clause(st, "bidding.turns");
                }
                "reserve" => {
                    let (Some(name), Some(contracts)) = (st.args.first().map(|w| w.text.clone()), self.value(st, Ctx::Setup)) else {
                        self.err_at(st, "a reserving bid is written `reserve NAME \"label\" = [contract names allowed in the second round]`");
                        continue;
                    };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
                    b.reserve = Some(Reserve { clause: self.clause(st, format!("bidding.reserve.{name}")), name, label, contracts });
                }
                "contract" => {
                    let Some(name) = st.args.first().map(|w| w.text.clone()) else {
                        self.err_at(st, "a contract is written `contract NAME \"label\" { attribute = value ... }`");
                        continue;
                    };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
                    let mut attrs = vec![];
                    let mut by = None;
                    let mut settle = None;
                    let mut requires = vec![];
                    let mut dog = None;
                    for a in st.block.iter().flatten() {
                        if a.key == "settle" {
                            if let Some(e) = self.value(a, Ctx::AfterAuction) {
                                if let Expr::Const(v) = &e {
                                    if !matches!(v, Value::Num(_)) {
                                        self.err_at(a, format!("`settle` is the amount each opponent pays the taker, a number, not {}", v.type_name()));
                                    }
                                }
                                settle = Some((e, self.clause(a, format!("bidding.contract.{name}.settle"))));
                            }
                            continue;
                        }
                        if a.key == "require" {
                            // Read once the announcements are closed, as a declaration's `allowed` is.
                            let label = a.args.first().map(|w| w.text.clone()).unwrap_or_default();
                            let label = self.label(a, label);
                            if let Some(e) = self.condition(a, Ctx::Allowed) {
                                let rule = format!("bidding.contract.{name}.require.{}", requires.len() + 1);
                                requires.push((label, e, self.clause(a, rule)));
                            }
                            continue;
                        }
                        if a.key == "by" {
                            if by.is_some() {
                                self.err_at(a, format!("contract `{name}` says `by` twice: join the conditions with `and`"));
                            }
                            let who = a.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "a player who meets its condition".into());
                            let when = self.condition(a, Ctx::Hand);
                            if let Some(when) = when {
                                by = Some(By { label: who, when, clause: self.clause(a, format!("bidding.contract.{name}.by")) });
                            }
                            continue;
                        }
                        if let Some(e) = self.value(a, Ctx::Setup) {
                            if a.key == "dog" {
                                dog = self.word_of(a, &e);
                            }
                            attrs.push((a.key.clone(), e));
                        }
                    }
                    if !attrs.iter().any(|(k, _)| k == "dog") {
                        self.err_at(st, format!("contract `{name}` does not say what becomes of the dog: `dog = \"taker\"`"));
                    }
                    if settle.is_some() {
                        if let Some(a) = st.block.iter().flatten().find(|a| a.key == "require") {
                            self.err_at(a, format!("contract `{name}` is settled unplayed (`settle`): no card is played, so its `require`, checked at the first card, would never be"));
                        }
                    }
                    let dog = dog.unwrap_or(Choice::Is(DogUse::Defence));
                    b.contracts.push(Contract { clause: self.clause(st, format!("bidding.contract.{name}")), name, label, attrs, dog, by, settle, requires });
                }
                "all-pass" if st.args.get(2).is_some_and(|w| w.text == "by") => {
                    // A player the rules name, the first in turn whose hand meets the condition.
                    let (Some(name), Some(who)) = (st.args.get(1), st.args.get(3)) else { continue };
                    if let Some(when) = self.condition(st, Ctx::Hand) {
                        all_pass_by.push((st, name.text.clone(), who.text.clone(), when));
                    }
                }
                "all-pass" => {
                    // What all passing does when nobody is named: one statement says it.
                    if let Some(first) = all_pass_last {
                        self.err_at(
                            st,
                            format!(
                                "two `all-pass` statements say what happens when everyone passes (the other at line {}): only one can; a player named to play is written `all-pass play CONTRACT by \"who\" = condition`",
                                first.pos.line
                            ),
                        );
                    }
                    all_pass_last = Some(st);
                    b.all_pass = Some(self.clause(st, "bidding.all-pass"));
                    if let (Some("play"), Some(name)) = (st.args.first().map(|w| w.text.as_str()), st.args.get(1)) {
                        all_pass_play = Some((st, name.text.clone()));
                    }
                }
                "hold" if st.value.is_some() => {
                    if !st.args.is_empty() {
                        self.err_at(st, "`hold` is written `hold forehand`, `hold seniority` or `hold = formula of options`, not a word and a formula");
                    } else if let Some(w) = self.hold_following(st).and_then(|e| self.word_of(st, &e)) {
                        b.hold = Some(self.clause(st, "bidding.hold"));
                        b.hold_by = Some(w);
                    }
                }
                "hold" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("forehand") => b.hold = Some(self.clause(st, "bidding.hold")),
                    Some("seniority") => {
                        b.hold = Some(self.clause(st, "bidding.hold"));
                        b.hold_by = Some(Choice::Is(Hold::Seniority));
                    }
                    _ => self.err_at(
                        st,
                        "`hold forehand` is the only form in which forehand alone may bid the contract another player holds; `hold seniority` lets each player bid the contract of a player after him in turn",
                    ),
                },
                "no-reraise" => b.no_reraise = Some(self.clause(st, "bidding.no-reraise")),
                "first-turn" | "step" | "opening-round" | "closing" | "out-of-turn" => listed.push(st),
                "must-bid" => {
                    let Some(name) = st.args.first().map(|w| w.text.clone()) else { continue };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| format!("a hand that must bid {name}"));
                    if let Some(when) = self.value(st, Ctx::Hand) {
                        must_bids.push((st, name, label, when));
                    }
                }
                "instead" => {
                    let (Some(won), Some(chosen)) = (st.args.first().map(|w| w.text.clone()), st.args.get(1).map(|w| w.text.clone())) else { continue };
                    let label = st.args.get(2).map(|w| w.text.clone()).unwrap_or_else(|| format!("the winner with {won}"));
                    if let Some(when) = self.value(st, Ctx::Hand) {
                        insteads.push((st, won, chosen, label, when));
                    }
                }
                "raise" => {
                    if let Some(when) = self.value(st, Ctx::Hand) {
                        raises.push((st, when));
                    }
                }
                other => self.err_at(
                    st,
                    format!("unknown bidding statement `{other}`; expected turns, contract, reserve, all-pass, hold, no-reraise, must-bid, first-turn, step, opening-round, closing, out-of-turn, instead or raise"),
                ),
            }
        }
        // A forced bid names a contract of the block, wherever it is written in it.
        for (st, name, label, when) in must_bids {
            match b.contracts.iter().position(|c| c.name == name) {
                Some(contract) => b.must_bid.push(MustBid { contract, label, when, clause: self.clause(st, format!("bidding.must-bid.{name}")) }),
                None => {
                    let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                    self.err_at(st, format!("`must-bid {name}`: there is no contract `{name}`; the contracts are {}", known.join(", ")));
                }
            }
        }
        // `first-turn`, `step`, `opening-round`, `closing` and `out-of-turn` name contracts of the
        // block, each once; a step's, lowest first (after its word `lowest`, if written).
        for st in listed {
            let mut cs = vec![];
            let lowest = st.key == "step" && st.args.first().is_some_and(|w| w.text == "lowest");
            for w in st.args.iter().skip(usize::from(lowest)) {
                match b.contracts.iter().position(|c| c.name == w.text) {
                    Some(c) if cs.contains(&c) => self.err_at(st, format!("`{}` names contract `{}` twice", st.key, w.text)),
                    Some(c) if st.key == "step" && cs.last().is_some_and(|&l| l > c) => {
                        self.err_at(st, format!("`step` lists its contracts lowest first, as the block does: `{}` comes before `{}`", w.text, b.contracts[cs[cs.len() - 1]].name))
                    }
                    Some(c) => cs.push(c),
                    None => {
                        let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                        self.err_at(st, format!("`{} {}`: there is no contract `{}`; the contracts are {}", st.key, w.text, w.text, known.join(", ")));
                    }
                }
            }
            let rule = format!("bidding.{}", st.key);
            let listed = Some((cs, self.clause(st, rule)));
            match st.key.as_str() {
                "step" => {
                    b.step = listed;
                    b.step_lowest = lowest;
                }
                "opening-round" => b.opening_round = listed,
                "closing" => b.closing = listed,
                "out-of-turn" => b.out_of_turn = listed,
                _ => b.first_turn = listed,
            }
        }
        // The contract played when everyone passes has no taker: every player defends, so its dog
        // counts for nobody, and nobody may bid it.
        if let Some((st, name)) = all_pass_play {
            match b.contracts.iter().position(|c| c.name == name) {
                Some(c) => {
                    if !b.contracts[c].dog.is(DogUse::Defence) {
                        self.err_at(st, format!("contract `{name}` is played with no taker, every player for himself: its dog must be `dog = \"defence\"` (it counts for nobody)"));
                    }
                    if b.must_bid.iter().any(|m| m.contract == c) {
                        self.err_at(st, format!("contract `{name}` is played when everyone passes, so no hand can be forced to bid it"));
                    }
                    if b.contracts[c].settle.is_some() {
                        self.err_at(st, format!("contract `{name}` is played when everyone passes, with no taker: it cannot be settled unplayed (`settle` pays the taker)"));
                    }
                    if !b.contracts[c].requires.is_empty() {
                        self.err_at(st, format!("contract `{name}` is played when everyone passes, with no taker: its `require` would ask nobody"));
                    }
                    b.all_pass_play = Some(c);
                }
                None => {
                    let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                    self.err_at(st, format!("`all-pass play {name}`: there is no contract `{name}`; the contracts are {}", known.join(", ")));
                }
            }
        }
        // A player named to play a contract when everyone passes takes it as if he had won the
        // auction with it: a contract with a taker, never the one played each for himself.
        for (st, name, who, when) in all_pass_by {
            let Some(c) = b.contracts.iter().position(|c| c.name == name) else {
                let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                self.err_at(st, format!("`all-pass play {name} by`: there is no contract `{name}`; the contracts are {}", known.join(", ")));
                continue;
            };
            if b.all_pass_play == Some(c) {
                self.err_at(
                    st,
                    format!("contract `{name}` is played each for himself when everyone passes (`all-pass play {name}`): it cannot also be played by a player named, as its taker"),
                );
                continue;
            }
            b.all_pass_by.push(AllPassBy { contract: c, label: who, when, clause: self.clause(st, format!("bidding.all-pass.{name}")) });
        }
        // A contract chosen in place of the one won (`instead`) is played with no taker, as the
        // all-pass contract is: its dog counts for nobody, and nobody bids it or is forced to.
        for (st, won, chosen, label, when) in insteads {
            let find = |name: &str| b.contracts.iter().position(|c| c.name == name);
            let known: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
            let (Some(w), Some(c)) = (find(&won), find(&chosen)) else {
                let missing = if find(&won).is_none() { &won } else { &chosen };
                self.err_at(st, format!("`instead {won} {chosen}`: there is no contract `{missing}`; the contracts are {}", known.join(", ")));
                continue;
            };
            if w == c {
                self.err_at(st, format!("`instead {won} {chosen}` names the same contract twice: the winner chooses another contract in place of the one won"));
            } else if !b.contracts[c].dog.is(DogUse::Defence) {
                self.err_at(st, format!("contract `{chosen}` is played with no taker, every player for himself: its dog must be `dog = \"defence\"` (it counts for nobody)"));
            } else if b.all_pass_by.iter().any(|a| a.contract == c) {
                self.err_at(
                    st,
                    format!("contract `{chosen}` is played with no taker when chosen (`instead`), and by a player named as its taker when everyone passes (`all-pass play {chosen} by`): it cannot be both"),
                );
            } else if b.must_bid.iter().any(|m| m.contract == c) || b.all_pass_play == Some(c) || b.instead.iter().any(|i| i.won == c) {
                self.err_at(
                    st,
                    format!("contract `{chosen}` is chosen after the auction, not bid: no hand is forced to bid it, it is not played when all pass, and it is not won"),
                );
            } else if b.contracts[c].settle.is_some() {
                self.err_at(st, format!("contract `{chosen}` is played with no taker: it cannot be settled unplayed (`settle` pays the taker)"));
            } else if !b.contracts[c].requires.is_empty() {
                self.err_at(st, format!("contract `{chosen}` is played with no taker: its `require` would ask nobody"));
            } else if b.instead.iter().any(|i| i.won == w && i.chosen == c) {
                self.err_at(st, format!("`instead {won} {chosen}` is written twice"));
            } else {
                b.instead.push(Instead { won: w, chosen: c, label, when, clause: self.clause(st, format!("bidding.instead.{chosen}")) });
            }
        }
        // The contracts the winner may name at his last word, played with him as taker (`raise`).
        for (st, when) in raises {
            if let Some(r) = self.raise(st, when, &b) {
                b.raise.push(r);
            }
        }
        self.rounds_checked(s, &b);
        if b.turns == Turns::Once {
            // Forehand speaks first and nobody speaks twice: nothing would ever be held or re-raised.
            for st in s.block.iter().flatten().filter(|st| st.key == "hold" || st.key == "no-reraise" || st.key == "first-turn") {
                self.err_at(
                    st,
                    format!("`{}` needs a bidding in which players speak again (`turns until-one-left` or `turns rounds`); with `turns once` it would never apply", st.key),
                );
            }
        }
        if b.contracts.is_empty() {
            self.err_at(s, "bidding needs at least one `contract`");
        }
        if b.reserve.is_some() && b.turns != Turns::Once {
            self.err_at(s, "a reserving bid needs `turns once`: its second round follows the first");
        }
        b
    }

    pub(super) fn card_class(&mut self, st: &Stmt, rule: &str) -> Option<CardClass> {
        let pack_all = Pack { cards: CardSet::full(), ..self.dummy_pack() };
        let cards = self.class_value(st, &pack_all)?;
        let label = st.args.first().map(|w| w.text.clone()).unwrap_or_else(|| "these cards".into());
        Some(CardClass { cards, label, clause: self.clause(st, rule) })
    }

    pub(super) fn dummy_pack(&self) -> Pack {
        Pack {
            cards: CardSet::full(),
            suit_names: Default::default(),
            rank_names: Default::default(),
            fool_name: String::new(),
            trump_names: vec![],
            aliases: vec![],
            later_wins: CardSet::EMPTY,
            strength: [0; PACK_SIZE],
            reversible: None,
            trump_orders: vec![],
            clause: Clause { rule: "".into(), at: "".into(), source: None, source_file: None },
        }
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
                other => self
                    .err_at(st, format!("unknown discard statement `{other}`; expected taker, dealer, others, forbid, unless-unavoidable, penalize, penalty, require or goes-to")),
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

/// Whether two list literals are the same numbers written out.
fn same_list(a: &Ast, b: &Ast) -> bool {
    match (&a.kind, &b.kind) {
        (AstKind::List(x), AstKind::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| matches!((&p.kind, &q.kind), (AstKind::Num(m), AstKind::Num(n)) if m == n)),
        _ => false,
    }
}

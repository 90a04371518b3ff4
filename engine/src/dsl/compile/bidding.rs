//! The `bidding` section: the contracts, the turns, holding, passing all round (`all-pass`), the bids
//! that end the auction (`closing`, `out-of-turn`) and what its winner may say after (`instead`,
//! `raise`), and a hold whose kind follows the options; `raise` itself is compiled in `raise.rs`, the
//! rounds and closing bids checked against the rest of the block in `rounds.rs`.

use super::*;

impl Compiler {
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

    pub(super) fn bidding(&mut self, s: &Stmt) -> Bidding {
        let mut b = Bidding {
            turns: Turns::Once,
            turns_clause: self.clause(s, "bidding"),
            contracts: vec![],
            all_pass: None,
            all_pass_play: None,
            all_pass_by: vec![],
            all_pass_pays: vec![],
            reserve: None,
            hold: None,
            hold_by: None,
            no_reraise: None,
            must_bid: vec![],
            first_turn: None,
            step: None,
            step_lowest: false,
            opening_round: None,
            opening_out: None,
            opening_out_from_first: false,
            opening_out_if: None,
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
                "all-pass" if st.args.first().is_some_and(|w| w.text == "pay" && !w.quoted) => {
                    // A payment made when the deal is thrown in for all passing.
                    if let Some(pay) = self.all_pass_pay(st, b.all_pass_pays.len()) {
                        b.all_pass_pays.push(pay);
                    }
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
                "opening-bidder" => match st.args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>()[..] {
                    ["out"] | ["out", "from", "first-hand"] => {
                        b.opening_out = Some(self.clause(st, "bidding.opening-bidder"));
                        b.opening_out_from_first = st.args.len() == 3;
                        // `= condition`: out only in the games whose options make it true.
                        if st.value.is_some() {
                            b.opening_out_if = self.condition_of_options(
                                st,
                                "opening-bidder out = condition",
                                "`opening-bidder out` is a switch and takes no value, unless it follows options: `opening-bidder out = condition of options`",
                            );
                        }
                    }
                    _ => self.err_at(
                        st,
                        "`opening-bidder out` (the auction after it begins with the player after him) or `opening-bidder out from first-hand` (with first hand, or the player after first hand if it was he) are the only forms: the opening round's bidder does not speak in the auction after it",
                    ),
                },
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
                    format!("unknown bidding statement `{other}`; expected turns, contract, reserve, all-pass, hold, no-reraise, must-bid, first-turn, step, opening-round, opening-bidder, closing, out-of-turn, instead or raise"),
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
        // A payment for a deal thrown in: where a contract is played when everyone passes, each for
        // himself, no deal is ever thrown in for all passing, and the payment would never be made.
        if let Some(c) = b.all_pass_play {
            let label = b.contracts[c].label.clone();
            for st in s.block.iter().flatten().filter(|st| st.key == "all-pass" && st.args.first().is_some_and(|w| w.text == "pay" && !w.quoted)) {
                self.err_at(
                    st,
                    format!("`all-pass pay` is paid when everyone passes and the deal is thrown in, but here {label} is played then (`all-pass play`): no deal is thrown in, so it would never be paid"),
                );
            }
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

    /// `all-pass pay PAYERS to PAYEES ["label"] = amount`: a payment between players made when
    /// everyone passes and the deal is thrown in (a compensation to the next dealer, say). The
    /// score's form, between players only (no pot: an annulled deal carries the pots unchanged), its
    /// amount read with `payer` and `payee` for each pair, the dealer, first hand, the players and
    /// the options. The `n`th of them; rule `bidding.all-pass.pay`, then `.pay.2`, ...
    fn all_pass_pay(&mut self, st: &Stmt, n: usize) -> Option<Pay> {
        let words: Vec<&Word> = st.args.iter().skip(1).collect();
        if !(words.len() == 3 || (words.len() == 4 && words[3].quoted)) || words[1].text != "to" {
            self.err_at(
                st,
                "a payment when everyone passes is written `all-pass pay PAYERS to PAYEES [\"label\"] = amount`, e.g. `all-pass pay players to first_hand \"compensation\" = 10`",
            );
            return None;
        }
        let file = st.file.clone();
        let side = |c: &mut Compiler, w: &Word| -> Option<Expr> {
            if w.text.starts_with("pot.") {
                c.err_at(
                    st,
                    format!("`{}`: a payment when everyone passes goes between players, not into or out of a pot (a deal thrown in carries its pots on as they were)", w.text),
                );
                return None;
            }
            c.expr(&file, &Ast { pos: w.pos, kind: AstKind::Name(w.text.clone()) }, Ctx::AllPass)
        };
        let (from, to) = (side(self, words[0]), side(self, words[2]));
        let amount = self.value(st, Ctx::AllPass);
        if let Some(Expr::Const(v)) = &amount {
            if !matches!(v, Value::Num(_)) {
                self.err_at(st, format!("`all-pass pay` takes an amount, a number each payee receives from each payer, not {}", v.type_name()));
                return None;
            }
        }
        let label = words.get(3).map(|w| w.text.clone()).unwrap_or_else(|| "all passed".to_string());
        let rule = if n == 0 { "bidding.all-pass.pay".to_string() } else { format!("bidding.all-pass.pay.{}", n + 1) };
        Some(Pay { from: Account::Players(from?), to: Account::Players(to?), amount: amount?, label: label.into(), clause: self.clause(st, rule) })
    }
}

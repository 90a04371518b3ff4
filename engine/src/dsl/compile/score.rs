//! `score`: the game, the settlement, and the end of a match (`match`).

use super::*;

impl Compiler {
    /// `match { deals = N; target = N }`: setup formulas, each a positive number where it is a
    /// constant; at least one of the two, since a match with neither would never end, unless a
    /// declaration of the ruleset ends it (`ends_by_declaration`: `ends-match`, either form), when
    /// `match { }` may be empty.
    pub(super) fn game_match(&mut self, s: &Stmt, ends_by_declaration: bool) -> Option<Match> {
        let mut m = Match { deals: None, target: None, clause: self.clause(s, "match") };
        for st in s.block.iter().flatten() {
            let slot = match st.key.as_str() {
                "deals" => &mut m.deals,
                "target" => &mut m.target,
                other => {
                    self.err_at(st, format!("unknown match statement `{other}`; expected deals or target"));
                    continue;
                }
            };
            let Some(e) = self.value(st, Ctx::Setup) else { continue };
            if let Expr::Const(v) = &e {
                let whole = matches!(v, Value::Num(q) if q.is_integer() && *q > Q::ZERO);
                let positive = matches!(v, Value::Num(q) if *q > Q::ZERO);
                if (st.key == "deals" && !whole) || !positive {
                    let what = if st.key == "deals" { "a whole number of deals, 1 or more" } else { "a number of points above 0" };
                    self.err_at(st, format!("`{}` is {what}, not {v:?}", st.key));
                    continue;
                }
            }
            *slot = Some((e, self.clause(st, format!("match.{}", st.key))));
        }
        // A `deals` or `target` that failed is reported where it is written, not again here.
        let written = s.block.iter().flatten().any(|st| matches!(st.key.as_str(), "deals" | "target"));
        if !written && !ends_by_declaration {
            self.err_at(
                s,
                "a match ends after a number of deals or when a player's total reaches a target: give `deals = N`, `target = N`, or both (or leave it empty, `match { }`, where a declaration ends the match: `ends-match`)",
            );
        }
        (m.deals.is_some() || m.target.is_some() || (!written && ends_by_declaration)).then_some(m)
    }

    pub(super) fn score(&mut self, s: Option<&Stmt>) -> Score {
        let mut sc = Score { lets: vec![], terms: vec![], pays: vec![], standing: None, winner: None, notes: vec![] };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `score { ... }` section");
            return sc;
        };
        // The `let`s first, each after those it reads (`let_order`), so any statement may read any of them.
        let lets: Vec<&Stmt> = s.block.iter().flatten().filter(|st| st.key == "let").collect();
        for st in self.let_order(&lets) {
            self.in_score_let = true;
            self.score_let_reads_player = false;
            let l = self.let_stmt(st, Ctx::Score, "score");
            self.in_score_let = false;
            if let Some(mut l) = l {
                l.per_player = self.score_let_reads_player;
                self.score_lets.push(l.name.to_string());
                self.score_lets_per_player.push(l.per_player);
                sc.lets.push(l);
            }
        }
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                // Compiled above, in the order of what they read.
                "let" => {}
                "term" => {
                    let Some(name) = st.args.first().map(|w| w.text.clone()) else {
                        self.err_at(st, "a term is written `term NAME \"label\" = formula`");
                        continue;
                    };
                    let label = st.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| name.clone());
                    if let Some(expr) = self.value(st, Ctx::Score) {
                        sc.terms.push(Term { clause: self.clause(st, format!("score.term.{name}")), name, label: label.into(), expr });
                    }
                }
                "pay" => {
                    let words: Vec<&Word> = st.args.iter().collect();
                    if !(words.len() == 3 || (words.len() == 4 && words[3].quoted)) || words[1].text != "to" {
                        self.err_at(st, "a payment is written `pay PAYERS to PAYEES [\"label\"] = amount`, e.g. `pay defence to attack = total`");
                        continue;
                    }
                    let label = words.get(3).map(|w| w.text.clone()).unwrap_or_else(|| "settlement".into());
                    let file = st.file.clone();
                    // Players (a formula), or a pot: `pot.NAME`.
                    let side = |c: &mut Compiler, w: &Word| match c.pot_word(&file, w)? {
                        Some(i) => Some(Account::Pot(i)),
                        None => c.expr(&file, &Ast { pos: w.pos, kind: AstKind::Name(w.text.clone()) }, Ctx::Score).map(Account::Players),
                    };
                    let (from, to) = (side(self, words[0]), side(self, words[2]));
                    if let (Some(Account::Pot(_)), Some(Account::Pot(_))) = (&from, &to) {
                        self.err_at(st, "a payment goes between players and a pot, or between players, not from one pot to another");
                        continue;
                    }
                    if let Some(Account::Pot(i)) = &to {
                        self.pots_paid_in.insert(*i);
                    }
                    let amount = self.value(st, Ctx::Pay);
                    if let (Some(from), Some(to), Some(amount)) = (from, to, amount) {
                        // A pot is no player: the side that is a pot has no `payer` or `payee`.
                        for (side, fact, name) in [(&from, Fact::Payer, "payer"), (&to, Fact::Payee, "payee")] {
                            if let (Account::Pot(i), true) = (side, amount.mentions(fact)) {
                                let pot = self.pot_names[*i].clone();
                                self.err_at(
                                    st,
                                    format!(
                                        "`{name}` is pot `{pot}` here, not a player, so the amount cannot read `{name}`; each player on the other side is paid or pays in turn"
                                    ),
                                );
                            }
                        }
                        // Named by its label's words up to the first sign ("Trischaken: the most ..." is
                        // `score.pay.trischaken`), else by its sides; a name another payment has is
                        // followed by the payment's number.
                        let named = words.get(3).map(|w| {
                            let head: String = w.text.chars().take_while(|c| c.is_alphanumeric() || *c == ' ' || *c == '-').collect();
                            head.split_whitespace().collect::<Vec<_>>().join("-").to_lowercase()
                        });
                        let rule = match named.filter(|n| !n.is_empty()) {
                            Some(n) => format!("score.pay.{n}"),
                            None => format!("score.pay.{}.{}", words[0].text, words[2].text),
                        };
                        let rule = if sc.pays.iter().any(|p| *p.clause.rule == *rule) { format!("{rule}.{}", sc.pays.len() + 1) } else { rule };
                        sc.pays.push(Pay { from, to, amount, label: label.into(), clause: self.clause(st, rule) });
                    }
                }
                "standing" => sc.standing = self.stated(st, Ctx::PerPlayer, "score"),
                "winner" => sc.winner = self.stated(st, Ctx::PerPlayer, "score"),
                "note" => {
                    let text = st.args.first().map(|w| w.text.clone()).unwrap_or_default();
                    if let Some(e) = self.value(st, Ctx::Score) {
                        let n = sc.notes.len() + 1;
                        sc.notes.push((text, e, self.clause(st, format!("score.note.{n}"))));
                    }
                }
                other => self.err_at(st, format!("unknown score statement `{other}`; expected let, term, pay, standing, winner or note")),
            }
        }
        if !sc.pays.is_empty() && sc.standing.is_some() {
            self.err_at(s, "a score settles either by payments (`pay`) or by each player's standing (`standing`), not both");
        }
        // A `pay` or `standing` written, though it failed (its error says why), is not missing.
        let written = |key: &str| s.block.iter().flatten().any(|st| st.key == key);
        if sc.pays.is_empty() && sc.standing.is_none() && !written("pay") && !written("standing") {
            self.err_at(s, "the score says neither who pays whom (`pay`) nor each player's standing (`standing = ...`)");
        }
        sc
    }
}

//! The table and the deal: `players`, `deal` (the hands, the dog, the packets and their orders, the
//! cut, who deals next) and `annul`. The auction is in `bidding.rs`, the sections between it and the
//! play (the partner call, the discard, the talon, buying, sitting out and stealing) in
//! `after_auction.rs`.

use super::*;

impl Compiler {
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
            dog_name: None,
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
        let mut dog_name = None;
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
                "dog_name" => dog_name = Some(st),
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
                        "unknown deal statement `{other}`; expected hand, dealer, dog, cut, piles, pile_size, packets, dealer_packets, dog_packets, dog_apart, dog_after, dog_name, require, next_dealer or next_dealer_annulled"
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
        if let Some(st) = dog_name {
            d.dog_name = self.dog_name(st, d.dog.is_some());
        }
        d
    }

    /// The game's word for the dog: a word in quotes, in a deal that has a dog.
    fn dog_name(&mut self, st: &Stmt, has_dog: bool) -> Option<(String, Clause)> {
        let word = match st.value.as_ref().map(|v| &v.kind) {
            Some(AstKind::Str(w)) if !w.trim().is_empty() && w.trim() == w && !w.contains(['"', '\n']) => w.clone(),
            _ => {
                self.err_at(st, "`dog_name` is the game's word for the dog, in quotes, without \"the\": `dog_name = \"Blinde\"`");
                return None;
            }
        };
        if !has_dog {
            self.err_at(st, "`dog_name` names the dog, and this deal has none: give its size with `dog = N`");
            return None;
        }
        Some((word, self.clause(st, "deal.dog_name")))
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
    /// annulled deal only in a ruleset that annuls some (`annul`, `all-pass annul`, a declaration
    /// `ends-deal annul`), which has no taker.
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
                    "`next_dealer_annulled` says who deals after an annulled deal, and this ruleset annuls none (no `annul`, no `all-pass annul`, no declaration `ends-deal annul`): it would never apply",
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
}

/// Whether two list literals are the same numbers written out.
fn same_list(a: &Ast, b: &Ast) -> bool {
    match (&a.kind, &b.kind) {
        (AstKind::List(x), AstKind::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| matches!((&p.kind, &q.kind), (AstKind::Num(m), AstKind::Num(n)) if m == n)),
        _ => false,
    }
}

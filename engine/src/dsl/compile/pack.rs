//! The pack (`pack`: suits, ranks and their names, the Fool) and the classes of cards (`class`); the
//! trumps are in `trumps`, the counting of card points in `counting`.

use super::*;

impl Compiler {
    pub(super) fn pack(&mut self, s: Option<&Stmt>) -> Pack {
        let mut pack = Pack {
            cards: CardSet::EMPTY,
            suit_names: ["spades", "hearts", "diamonds", "clubs"].map(String::from),
            rank_names: std::array::from_fn(|r| match r {
                0 => String::new(),
                1 => "ace".into(),
                11 => "jack".into(),
                12 => "cavalier".into(),
                13 => "queen".into(),
                14 => "king".into(),
                n => n.to_string(),
            }),
            fool_name: "the Fool".into(),
            trump_names: vec![],
            aliases: vec![],
            later_wins: CardSet::EMPTY,
            strength: [0; PACK_SIZE],
            reversible: None,
            trump_orders: vec![],
            clause: Clause { rule: "pack".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `pack { ... }` section");
            return pack;
        };
        pack.clause = self.clause(s, "pack");
        let mut default_ranks: Option<Vec<u8>> = None;
        let mut suits: Vec<(u8, Option<Vec<u8>>)> = vec![];
        let mut trump_count = 0u8;
        let (mut fool_trump, mut orders, mut names, mut ties, mut codes) = (None, vec![], vec![], vec![], vec![]);
        let mut trump_suit = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "suit" => {
                    let Some(code) = st.args.first().and_then(|w| SUITS.iter().position(|c| c.to_string() == w.text)) else {
                        self.err_at(st, "a suit is written `suit S \"name\" [ranks high to low]`, with S one of S H D C");
                        continue;
                    };
                    if let Some(n) = st.args.get(1) {
                        pack.suit_names[code] = n.text.clone();
                    }
                    let ranks = if st.args.len() > 2 { Some(self.ranks(st, &st.args[2..])) } else { None };
                    suits.push((code as u8, ranks));
                }
                "ranks" => default_ranks = Some(self.ranks(st, &st.args)),
                "rank-name" => {
                    let mut named = vec![];
                    for pair in st.args.chunks(2) {
                        match (RANK_CODES.iter().position(|r| *r == pair[0].text), pair.get(1)) {
                            (Some(r), Some(_)) if named.contains(&r) => self.err(&st.file, pair[0].pos, format!("rank `{}` is named twice", pair[0].text)),
                            (Some(r), Some(name)) => {
                                named.push(r);
                                pack.rank_names[r + 1] = name.text.clone()
                            }
                            _ => self.err_at(st, format!("`rank-name` takes pairs of a rank code and its name; `{}` is not a rank code", pair[0].text)),
                        }
                    }
                }
                "reversed" => {
                    let mut lanes: Vec<u8> = vec![];
                    for w in &st.args {
                        match SUITS.iter().position(|c| c.to_string() == w.text) {
                            Some(i) => lanes.push(i as u8),
                            None => self.err(&st.file, w.pos, format!("`{}` is not a suit: `reversed` names suits among S H D C, e.g. `reversed H D = yes`", w.text)),
                        }
                    }
                    let cond = self.value(st, Ctx::Setup);
                    if lanes.is_empty() {
                        self.err_at(st, "`reversed` names the suits whose numerals rank in reverse, e.g. `reversed H D = yes`");
                    } else if let Some(c) = cond {
                        pack.reversible = Some((lanes, c, self.clause(st, "pack.reversed")));
                    }
                }
                "trumps" => match st.args.first().and_then(|w| w.text.parse::<u8>().ok()) {
                    Some(n) if (1..=MAX_TRUMPS).contains(&n) => trump_count = n,
                    _ => self.err_at(st, format!("`trumps N` gives the pack trumps T1 to TN, N a number from 1 to {MAX_TRUMPS}: `trumps 21`")),
                },
                "fool" => {
                    let mut named = false;
                    for w in &st.args {
                        match (w.quoted, w.text.as_str()) {
                            (true, _) if named => self.err(&st.file, w.pos, "the Fool has one name: `fool \"the Excuse\"`"),
                            (true, name) => {
                                named = true;
                                pack.fool_name = name.to_string()
                            }
                            (false, "trump") => fool_trump = Some(st),
                            (false, other) => self.err(&st.file, w.pos, format!("`fool` takes the Fool's name in quotes and `trump`, not `{other}`: `fool \"the Sküs\" trump`")),
                        }
                    }
                    if st.value.is_some() {
                        if fool_trump.is_none() {
                            self.err_at(st, "`fool \"name\" trump = condition` says when the Fool is a trump: the word `trump` is missing");
                        } else if !self.fool_trump_following(st) {
                            fool_trump = None;
                        }
                    }
                    if fool_trump.is_none() {
                        pack.cards.insert(FOOL);
                    }
                }
                "trump-suit" => trump_suit = Some(st),
                "trump-order" => orders.push(st),
                "trump-name" => names.push(st),
                "tie" => ties.push(st),
                "code" => codes.push(st),
                other => self.err_at(
                    st,
                    format!("unknown pack statement `{other}`; expected suit, ranks, rank-name, reversed, trumps, trump-suit, fool, trump-order, trump-name, tie or code"),
                ),
            }
        }
        if let Some(st) = trump_suit {
            trump_count = self.trump_suit(&mut pack, st, trump_count, &suits);
            // Its cards are trumps, ranked by `trump-suit`: `reversed` would never apply to them.
            if let (Some(lane), Some((lanes, _, _))) = (self.trump_suit, &pack.reversible) {
                if lanes.contains(&lane) {
                    self.err_at(st, format!("suit {} is the trump suit, ranked high to low by `trump-suit`: `reversed` does not apply to it", SUITS[lane as usize]));
                }
            }
        }
        self.trumps_of_pack(&mut pack, trump_count, fool_trump, &orders, &names, &ties, &codes);
        for (suit, ranks) in suits {
            let Some(order) = ranks.or_else(|| default_ranks.clone()) else {
                self.err_at(s, format!("suit {} has no ranks: give them on its line or in a `ranks` statement", SUITS[suit as usize]));
                continue;
            };
            for (i, r) in order.iter().enumerate() {
                let c = Card::suited(suit, *r);
                pack.cards.insert(c);
                pack.strength[c.0 as usize] = (order.len() - i) as u8;
            }
        }
        pack
    }

    pub(super) fn ranks(&mut self, st: &Stmt, words: &[Word]) -> Vec<u8> {
        let mut out = vec![];
        for w in words {
            match RANK_CODES.iter().position(|r| *r == w.text) {
                Some(r) if !out.contains(&(r as u8 + 1)) => out.push(r as u8 + 1),
                Some(_) => self.err(&st.file, w.pos, format!("rank `{}` is listed twice", w.text)),
                None => self.err(&st.file, w.pos, format!("unknown rank `{}`; ranks are K Q C J 10 9 8 7 6 5 4 3 2 1", w.text)),
            }
        }
        out
    }

    pub(super) fn class(&mut self, s: &Stmt, pack: &Pack) {
        let Some(name) = s.args.first().map(|w| w.text.clone()) else {
            self.err_at(s, "a class is written `class NAME [\"label\"] = cards`");
            return;
        };
        if self.classes.iter().any(|c| c.name == name) {
            self.err_at(s, format!("class `{name}` is defined twice"));
        }
        let label = s.args.get(1).map(|w| w.text.clone());
        if Card::parse(&name).is_some() || ["trumps", "none", "yes", "no", "true", "false"].contains(&name.as_str()) {
            self.err_at(s, format!("`{name}` reads as a card or a built-in name; give the class another name"));
        }
        match self.class_value(s, pack.cards) {
            Some(cards) => {
                let clause = self.clause(s, format!("class.{name}"));
                self.classes.push(Class { name, label, cards, clause });
            }
            None => {
                self.failed.insert(name);
            }
        }
    }

    /// A set of cards written in `s`, within `pack` (the cards of the ruleset's pack, or every card
    /// where the pack is not known yet); a card outside it is refused.
    pub(super) fn class_value(&mut self, s: &Stmt, pack: CardSet) -> Option<CardSet> {
        let e = self.value(s, Ctx::Class)?;
        match e {
            Expr::Const(Value::Cards(c)) => {
                let outside = c.minus(pack);
                if !outside.is_empty() {
                    let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                    self.err_at(s, format!("cards not in this ruleset's pack: {}", names.join(" ")));
                }
                Some(c.and(pack))
            }
            _ => {
                self.err_at(s, "this must be a set of cards (card codes, classes, rank(K), suit(D), trumps, joined with + and -)");
                None
            }
        }
    }
}

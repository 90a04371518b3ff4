//! The pack's trumps: how many, a suit as the trumps (`trump-suit`), the Fool as a trump (following
//! an option or not), their order of strength, names, ties and the codes records may use.

use super::*;

impl Compiler {
    /// `trump-suit S "name" RANKS`: the suit's cards, high to low, are the pack's trumps, TN down to
    /// T1 (N the number of ranks), each named after its rank and the suit ("king of hearts") and
    /// written by its suit code as well (`KH` for T7 of nine). Returns N, or `count` when the statement
    /// is refused.
    pub(super) fn trump_suit(&mut self, pack: &mut Pack, st: &Stmt, count: u8, plain: &[(u8, Option<Vec<u8>>)]) -> u8 {
        let form = "`trump-suit S \"name\" RANKS` names the suit whose cards are the trumps and its ranks high to low: `trump-suit H \"hearts\" 1 10 K Q J 9 8 7 6`";
        let Some(suit) = st.args.first().and_then(|w| SUITS.iter().position(|c| c.to_string() == w.text)) else {
            self.err_at(st, form);
            return count;
        };
        let ranks = match st.args.get(1) {
            Some(name) if name.quoted && st.args.len() > 2 => self.ranks(st, &st.args[2..]),
            _ => {
                self.err_at(st, form);
                return count;
            }
        };
        if count > 0 {
            self.err_at(st, "`trump-suit` makes a suit's cards the pack's trumps: the pack gives no `trumps N` beside it");
            return count;
        }
        if plain.iter().any(|(s, _)| *s as usize == suit) {
            self.err_at(st, format!("suit {} is the trump suit: it is not also listed as a plain suit (`suit {}`)", SUITS[suit], SUITS[suit]));
            return count;
        }
        pack.suit_names[suit] = st.args[1].text.clone();
        self.trump_suit = Some(suit as u8);
        let n = ranks.len() as u8;
        pack.trump_names.resize(n as usize + 1, String::new());
        for (i, r) in ranks.iter().enumerate() {
            let trump = Card::trump(n - i as u8);
            pack.trump_names[(n - i as u8) as usize] = format!("{} of {}", pack.rank_names[*r as usize], pack.suit_names[suit]);
            pack.aliases.push((Card::suited(suit as u8, *r).to_string(), trump));
        }
        n
    }

    /// `fool "name" trump = condition`: whether the Fool is a trump in this compile (the condition with
    /// the options' defaults, or the other way when compiling the variant), the condition checked to be
    /// yes or no for every choice of the options it reads (and to read some).
    pub(super) fn fool_trump_following(&mut self, st: &Stmt) -> bool {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e else { return true };
        if read.is_empty() {
            self.err_at(st, "the condition of `fool \"name\" trump = condition` reads no option: write `fool \"name\" trump`, or `fool \"name\"` for the Excuse");
            return true;
        }
        let defaults: Vec<Value> = self.options.iter().map(|o| o.default.to_value().unwrap_or(Value::Bool(false))).collect();
        let at_default = match eval(&e, &Chosen(&defaults)) {
            Ok(Value::Bool(b)) => b,
            _ => {
                self.err_at(st, "the condition of `fool \"name\" trump = condition` must be yes or no, reading options only");
                return true;
            }
        };
        let Some(combinations) = self.each_choice(&read, st, "the condition of `fool \"name\" trump = condition`") else { return true };
        let mut differs = false;
        for (options, _) in combinations {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Bool(b)) => {
                    // The first choice of the options that makes the pack the other one, for the
                    // descriptions to name: the options it sets away from their defaults.
                    if b != at_default && !differs {
                        self.fool_other_way = read
                            .iter()
                            .filter(|&&i| options[i] != defaults[i])
                            .filter_map(|&i| Some((self.options[i].name.clone(), self.options[i].choices.iter().find(|c| c.to_value().as_ref() == Some(&options[i]))?.clone())))
                            .collect();
                    }
                    differs |= b != at_default
                }
                _ => {
                    self.err_at(st, "the condition of `fool \"name\" trump = condition` must be yes or no for every choice of the options it reads");
                    return true;
                }
            }
        }
        self.fool_trump_when = Some((e, self.clause(st, "pack.fool"), differs));
        self.fool_trump_fixed.unwrap_or(at_default)
    }

    /// The pack's trumps: how many (`trumps N`), the Fool as the top one (`fool "name" trump`: the
    /// card T(N+1), which records may write `EX`), their order of strength (`trump-order`, high to
    /// low; by number without it; `trump-order CARDS = condition` where a game's options make the
    /// condition true), their names (`trump-name`), tied trumps (`tie`) and the other codes records
    /// may use (`code`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn trumps_of_pack(&mut self, pack: &mut Pack, count: u8, fool_trump: Option<&Stmt>, orders: &[&Stmt], names: &[&Stmt], ties: &[&Stmt], codes: &[&Stmt]) {
        let mut top = count;
        if let Some(st) = fool_trump {
            if count == 0 || count >= MAX_TRUMPS {
                self.err_at(st, format!("the Fool as a trump ranks above the pack's trumps, so it needs `trumps N` with N from 1 to {}", MAX_TRUMPS - 1));
            } else {
                top = count + 1;
                let top_card = Card::trump(top);
                pack.trump_names.resize(top as usize + 1, String::new());
                pack.trump_names[top as usize] = pack.fool_name.clone();
                pack.aliases.push(("EX".into(), top_card));
            }
        }
        let trumps: Vec<Card> = (1..=top).map(Card::trump).collect();
        pack.cards = pack.cards.or(trumps.iter().copied().collect());
        self.pack_trumps = Some(pack.trumps());
        for st in codes {
            for pair in st.args.chunks(2) {
                let [alias, card] = pair else {
                    self.err_at(st, "`code` takes pairs of a code records may write and the card it is: `code SKUS T22`");
                    continue;
                };
                if let Some(c) = Card::parse(&alias.text).or_else(|| pack.aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(&alias.text)).map(|(_, c)| *c)) {
                    self.err(&st.file, alias.pos, format!("`{}` is already the code of {c}: a pack's own code must not read as another card", alias.text));
                    continue;
                }
                match pack.parse_card(&card.text).filter(|c| pack.cards.contains(*c)) {
                    Some(c) => pack.aliases.push((alias.text.clone(), c)),
                    None => self.err(&st.file, card.pos, format!("`{}` is not a card of this pack", card.text)),
                }
            }
        }
        self.pack_aliases = pack.aliases.clone();
        let mut named = CardSet::EMPTY;
        for st in names {
            for pair in st.args.chunks(2) {
                match (pack.parse_card(&pair[0].text).filter(|c| c.is_trump() && pack.cards.contains(*c)), pair.get(1)) {
                    (Some(c), Some(_)) if named.contains(c) => self.err(&st.file, pair[0].pos, format!("trump `{}` is named twice", pair[0].text)),
                    (Some(c), Some(name)) => {
                        named.insert(c);
                        let crate::cards::Kind::Trump(n) = c.kind() else { continue };
                        if pack.trump_names.len() <= n as usize {
                            pack.trump_names.resize(n as usize + 1, String::new());
                        }
                        pack.trump_names[n as usize] = name.text.clone();
                    }
                    _ => self
                        .err_at(st, format!("`trump-name` takes pairs of a trump of the pack and its name: `trump-name T20 \"the Angel\"`; `{}` is not such a pair", pair[0].text)),
                }
            }
        }
        // High to low: the order without a condition (at most one), or by number.
        let mut ranked: Vec<Card> = trumps.iter().rev().copied().collect();
        for st in orders {
            let listed = self.trump_order_listed(st, pack, &trumps);
            if st.value.is_none() {
                // One at most: a second is written twice (`check::duplicates`).
                ranked = listed;
                continue;
            }
            // `trump-order CARDS = condition`: the order of the games whose options make it true
            // (a setup formula, worked out when a game is set up, as `reversed`); the first line
            // whose condition holds applies.
            if let Some(cond) = self.value(st, Ctx::Setup) {
                if !ties.is_empty() {
                    self.err_at(st, "a `trump-order` that follows an option and a `tie` together are not said: the tied trumps are placed in one order only");
                }
                pack.trump_orders.push((listed, cond, self.clause(st, "pack.trump-order")));
            }
        }
        for (i, c) in ranked.iter().enumerate() {
            pack.strength[c.0 as usize] = (ranked.len() - i) as u8;
        }
        let mut already_tied = CardSet::EMPTY;
        for st in ties {
            let (cards, how) = match st.args.split_last() {
                Some((how, cards)) if how.quoted => (cards, how.text.as_str()),
                _ => (&st.args[..], ""),
            };
            let later = match how {
                "later-wins" => true,
                "first-wins" => false,
                _ => {
                    self.err_at(st, "`tie` names trumps of equal strength and which of them wins a trick: `tie T17 T18 T19 T20 \"later-wins\"` or `\"first-wins\"`");
                    continue;
                }
            };
            let tied: Vec<Card> = cards
                .iter()
                .filter_map(|w| {
                    pack.parse_card(&w.text).filter(|c| trumps.contains(c)).or_else(|| {
                        self.err(&st.file, w.pos, format!("`{}` is not a trump of this pack", w.text));
                        None
                    })
                })
                .collect();
            let mut places: Vec<usize> = tied.iter().filter_map(|c| ranked.iter().position(|r| r == c)).collect();
            places.sort_unstable();
            places.dedup();
            if places.len() < 2 || places.len() != tied.len() || places[places.len() - 1] - places[0] + 1 != places.len() {
                self.err_at(st, "tied trumps are two or more different trumps next to each other in the order of strength");
                continue;
            }
            let top_strength = pack.strength[ranked[places[0]].0 as usize];
            for c in &tied {
                if already_tied.contains(*c) {
                    self.err_at(st, format!("{} is already tied", pack.trump_name(*c)));
                }
                already_tied.insert(*c);
                pack.strength[c.0 as usize] = top_strength;
                if later {
                    pack.later_wins.insert(*c);
                }
            }
        }
    }

    /// The trumps a `trump-order` line lists, high to low, each trump of the pack once.
    fn trump_order_listed(&mut self, st: &Stmt, pack: &Pack, trumps: &[Card]) -> Vec<Card> {
        let mut listed: Vec<Card> = vec![];
        for w in &st.args {
            match pack.parse_card(&w.text).filter(|c| trumps.contains(c)) {
                Some(c) if listed.contains(&c) => self.err(&st.file, w.pos, format!("`{}` is listed twice", w.text)),
                Some(c) => listed.push(c),
                None => self.err(&st.file, w.pos, format!("`{}` is not a trump of this pack", w.text)),
            }
        }
        let missing: Vec<String> = trumps.iter().filter(|c| !listed.contains(c)).map(|c| pack.trump_name(*c)).collect();
        if !missing.is_empty() {
            self.err_at(st, format!("`trump-order` lists every trump of the pack, high to low; it leaves out {}", missing.join(", ")));
        }
        listed
    }
}

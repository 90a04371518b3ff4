//! The pack (`pack`: suits, trumps, their order and names, classes) and the counting of card points
//! (`counting`), with the forms that follow options.

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

    /// `trump-suit S "name" RANKS`: the suit's cards, high to low, are the pack's trumps, TN down to
    /// T1 (N the number of ranks), each named after its rank and the suit ("king of hearts") and
    /// written by its suit code as well (`KH` for T7 of nine). Returns N, or `count` when the statement
    /// is refused.
    fn trump_suit(&mut self, pack: &mut Pack, st: &Stmt, count: u8, plain: &[(u8, Option<Vec<u8>>)]) -> u8 {
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
        match self.class_value(s, pack) {
            Some(cards) => {
                let clause = self.clause(s, format!("class.{name}"));
                self.classes.push(Class { name, label, cards, clause });
            }
            None => {
                self.failed.insert(name);
            }
        }
    }

    pub(super) fn class_value(&mut self, s: &Stmt, pack: &Pack) -> Option<CardSet> {
        let e = self.value(s, Ctx::Class)?;
        match e {
            Expr::Const(Value::Cards(c)) => {
                let outside = c.minus(pack.cards);
                if !outside.is_empty() {
                    let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                    self.err_at(s, format!("cards not in this ruleset's pack: {}", names.join(" ")));
                }
                Some(c.and(pack.cards))
            }
            _ => {
                self.err_at(s, "this must be a set of cards (card codes, classes, rank(K), suit(D), trumps, joined with + and -)");
                None
            }
        }
    }

    /// Counters whose cards follow options: tried here with every choice of the options they read, so
    /// that every game has a table of values (cards of the pack, one value each), and kept in
    /// `Counting::by_option` for each game to add.
    pub(super) fn counters_by_option(&mut self, c: &mut Counting, counters: Vec<(u8, Expr, Vec<usize>, &Stmt)>, pack: &Pack) {
        if counters.is_empty() {
            return;
        }
        let read: Vec<usize> = counters.iter().flat_map(|(_, _, r, _)| r.iter().copied()).collect::<BTreeSet<usize>>().into_iter().collect();
        let Some(combinations) = self.each_choice(&read, counters[0].3, "the set of counters") else { return };
        for (options, with) in combinations {
            let mut values = c.values;
            for (v, e, _, st) in &counters {
                match eval(e, &Chosen(&options)) {
                    Ok(Value::Cards(set)) => {
                        let outside = set.minus(pack.cards);
                        if !outside.is_empty() {
                            let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                            self.err_at(st, format!("with {with}: cards not in this ruleset's pack: {}", names.join(" ")));
                            return;
                        }
                        for card in set.iter() {
                            if values[card.0 as usize] != 0 {
                                self.err_at(st, format!("with {with}: {card} already has a value"));
                                return;
                            }
                            values[card.0 as usize] = *v;
                        }
                    }
                    Ok(other) => {
                        self.err_at(st, format!("with {with}: this must be a set of cards, not {}", other.type_name()));
                        return;
                    }
                    Err(_) => {
                        self.err_at(st, "a counter's cards may follow options, and nothing else of the game (players, `let`s, the deal)");
                        return;
                    }
                }
            }
        }
        c.by_option = counters.into_iter().map(|(v, e, _, st)| (v, e, self.clause(st, "counting"))).collect();
    }

    /// `group = formula`: the group size following options (counted singly or in threes). The
    /// formula must read an option and give a whole number from 1 to 6 for every choice of the options
    /// it reads (1 under all of them with `empty 0`); `group` holds the size of the default options.
    pub(super) fn group_following(&mut self, c: &mut Counting, st: &Stmt, empty_zero: bool) {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e else { return };
        if read.is_empty() {
            self.err_at(st, "`group = formula` is for a group size that follows options, and this formula reads none: write `group N`");
            return;
        }
        let Some(combinations) = self.each_choice(&read, st, "the group") else { return };
        for (k, (options, with)) in combinations.into_iter().enumerate() {
            let g = match eval(&e, &Chosen(&options)) {
                Ok(Value::Num(n)) if n.is_integer() && (1..=6).contains(&n.numer()) => n.numer() as u32,
                Ok(other) => {
                    self.err_at(st, format!("with {with}: `group = formula` must give a whole number of cards from 1 to 6, not {}", other.type_name()));
                    return;
                }
                Err(_) => {
                    self.err_at(st, "the group size may follow options, and nothing else of the game (players, `let`s, the deal)");
                    return;
                }
            };
            if g != 1 && empty_zero {
                self.err_at(st, format!("with {with}: groups of {g}, but `empty 0` counts cards one by one and needs groups of one under every choice"));
                return;
            }
            if k == 0 {
                // The first combination is every read option at its default.
                c.group = g;
            }
        }
        c.group_by_option = Some((e, self.clause(st, "counting.group")));
    }

    pub(super) fn counting(&mut self, s: Option<&Stmt>, pack: &Pack) -> Counting {
        let mut c = Counting {
            group: 1,
            values: [0; PACK_SIZE],
            counters: vec![],
            empty_zero: false,
            by_option: vec![],
            group_by_option: None,
            surplus: Surplus::Exact,
            short_packet: ShortPacket::OverHalf,
            clause: Clause { rule: "counting".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `counting { ... }` section: how are card points counted?");
            return c;
        };
        c.clause = self.clause(s, "counting");
        let mut short_packet = None;
        let mut empty_at = None;
        let mut by_option: Vec<(u8, Expr, Vec<usize>, &Stmt)> = vec![];
        let mut group_formula = None;
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "group" if st.value.is_some() => {
                    if !st.args.is_empty() {
                        self.err_at(st, "`group` is written `group N` or `group = formula of options`, not both");
                    } else {
                        group_formula = Some(st);
                    }
                }
                "group" => match st.args.first().and_then(|w| w.text.parse::<u32>().ok()) {
                    Some(g) if (1..=6).contains(&g) => c.group = g,
                    _ => self.err_at(st, "`group N`: cards are counted in groups of N (1 to 6)"),
                },
                "counter" => {
                    let Some(v) = st.args.first().and_then(|w| w.text.parse::<u8>().ok()).filter(|v| *v > 0) else {
                        let w = st.args.first().map_or("", |w| w.text.as_str());
                        let why = if w == "0" {
                            "cards that no counter lists are already empty".to_string()
                        } else {
                            format!("`{w}` is not a whole number of points; V is written as a number from 1 to 255, fixed when the rules are compiled (it cannot be a formula or follow an option: write one `counter` per value, and an option on the cards with a class)")
                        };
                        self.err_at(st, format!("`counter V = cards` gives the cards worth V points in a group: {why}"));
                        continue;
                    };
                    // Options the formula reads make it a counter that follows them.
                    let (e, read) = self.setting_and_options_read(st);
                    let fixed = match &e {
                        Some(e) if read.is_empty() => match eval(e, &NO_GAME) {
                            Ok(Value::Cards(set)) => Some(set),
                            _ => {
                                self.err_at(st, "this must be a set of cards (card codes, classes, rank(K), suit(D), trumps, joined with + and -), fixed or following options");
                                continue;
                            }
                        },
                        _ => None,
                    };
                    if let Some(set) = fixed {
                        let outside = set.minus(pack.cards);
                        if !outside.is_empty() {
                            let names: Vec<String> = outside.iter().map(|c| c.to_string()).collect();
                            self.err_at(st, format!("cards not in this ruleset's pack: {}", names.join(" ")));
                        }
                        for card in set.and(pack.cards).iter() {
                            if c.values[card.0 as usize] != 0 {
                                self.err_at(st, format!("{card} already has a value"));
                            }
                            c.values[card.0 as usize] = v;
                        }
                    } else if let Some(e) = e {
                        by_option.push((v, e, read, st));
                    }
                }
                "surplus" => {
                    c.surplus = match st.args.first().map(|w| w.text.as_str()) {
                        Some("exact") => Surplus::Exact,
                        Some("nearest") => Surplus::Nearest,
                        Some("packets") => Surplus::Packets,
                        _ => {
                            self.err_at(st, "`surplus` is `exact` (keep fractions), `nearest` (round each pile) or `packets` (the packet rules)");
                            continue;
                        }
                    }
                }
                "short-packet" => {
                    c.short_packet = match st.args.first().map(|w| w.text.as_str()) {
                        Some("over-half") => ShortPacket::OverHalf,
                        Some("sum-less-one") => ShortPacket::SumLessOne,
                        _ => {
                            self.err_at(st, "`short-packet` is `over-half` (the Marolles rule) or `sum-less-one` (a short packet counts as a full one)");
                            continue;
                        }
                    };
                    short_packet = Some(st);
                }
                "empty" => match st.args.first().map(|w| w.text.as_str()) {
                    Some("0") => {
                        c.empty_zero = true;
                        empty_at = Some(st);
                    }
                    _ => self.err_at(st, "`empty 0` makes the cards no counter lists worth nothing; without it they are worth 1 in groups of one (1/N in groups of N)"),
                },
                other => self.err_at(st, format!("unknown counting statement `{other}`; expected group, counter, empty, surplus or short-packet")),
            }
        }
        if let Some(st) = group_formula {
            self.group_following(&mut c, st, empty_at.is_some());
        }
        if let Some(st) = short_packet.filter(|_| c.surplus != Surplus::Packets) {
            self.err_at(st, "`short-packet` says how `surplus packets` counts a short last packet; without `surplus packets` there are no packets, so it would be ignored");
        }
        if let Some(st) = empty_at.filter(|_| c.group != 1 || c.surplus == Surplus::Packets) {
            self.err_at(st, "`empty 0` counts cards one by one, each at its counter's value: it needs `group 1` (the default) and no `surplus packets`");
        }
        c.counters = crate::ir::counters_of(&c.values);
        self.counters_by_option(&mut c, by_option, pack);
        c
    }
}

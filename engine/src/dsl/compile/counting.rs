//! The counting of card points (`counting`): counters, groups, what the empty cards are worth, the
//! surplus and short packets, with the counters and the group size that follow options.

use super::*;

impl Compiler {
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

//! The rules as they stand for one game (`Setup`): a ruleset's options chosen (`ChosenOptions`) and its settings
//! evaluated at a table of so many players, once, before the deal. The settings of every section are
//! worked out here (`Settings::new`): the deal's sizes and packets, the pack's reversed numerals, the
//! fool's choices, the call's levels, the direction of play, the contracts of a reserving bid, the dog
//! of each contract, the discards and the obligations of the `play` block that apply.

use std::sync::Arc;

use crate::expr::{eval, truthy, Env, Expr, Fact, Func, Value};
use crate::ir::*;
use crate::num::Q;

/// The rules as they stand for one game: the ruleset with the game's options and number of players
/// applied, every setting evaluated once. Its settings are read through it (`setup.hand`).
pub struct Setup<'r> {
    pub rules: &'r Ruleset,
    /// Shared with the ruleset where the game chooses no option (`Ruleset::defaults`).
    settings: Arc<Settings>,
    /// Where a setting that applies after the auction reads the contract: the rules as they stand
    /// once each contract is known (`Setup::after_auction`), one per contract.
    contracts: Vec<Setup<'r>>,
}

impl Setup<'_> {
    /// Whether replay seats a table of `n` otherwise than the record lists its players: play goes
    /// clockwise (the list read backwards), or a player sits the deal out.
    pub fn reseats(&self, n: usize) -> bool {
        self.clockwise || self.rules.sits_out(n)
    }

    /// The counting of games set up so: the ruleset's, with the counters that follow the options
    /// chosen (`counter V = if option...`).
    pub fn counting(&self) -> &crate::ir::Counting {
        self.settings.counting.as_ref().unwrap_or(&self.rules.counting)
    }
}

impl std::ops::Deref for Setup<'_> {
    type Target = Settings;
    fn deref(&self) -> &Settings {
        &self.settings
    }
}

impl<'r> Setup<'r> {
    /// Applies options (by name, as `ChosenOptions`: the core's values, or a record's JSON read at
    /// the edge) and the number of players; says what is wrong with them.
    /// With no option chosen, the settings are worked out once per table size and kept in the ruleset.
    pub fn new<C: ChosenOptions + ?Sized>(rules: &'r Ruleset, n: usize, chosen: &C) -> Result<Setup<'r>, String> {
        let rules = rules.with_pack_for(n, chosen)?;
        let settings = match rules.defaults.at_table(n) {
            Some(cell) if chosen.is_empty() => cell.get_or_init(|| Settings::with_contracts(rules, n, chosen).map(Arc::new)).clone()?,
            _ => Arc::new(Settings::with_contracts(rules, n, chosen)?),
        };
        let contracts = settings.after_auction.iter().map(|s| Setup { rules, settings: s.clone(), contracts: vec![] }).collect();
        Ok(Setup { rules, settings, contracts })
    }

    /// What a game asks of the ruleset before its rules are worked out: a table size it is played at
    /// and options it has, each with one of its choices. What `new` finds wrong past these is the
    /// ruleset's fault, not the game's.
    pub fn table_fits<C: ChosenOptions + ?Sized>(rules: &Ruleset, n: usize, chosen: &C) -> Result<(), String> {
        // At a table where the dealer sits out, one fewer play.
        let playing = if rules.sits_out(n) { n.saturating_sub(1) } else { n };
        if rules.sides == Sides::Partners && playing % 2 == 1 {
            let out = if playing == n { String::new() } else { format!(" (the dealer of {n} sitting out)") };
            return Err(format!("{} is played by partners sitting opposite, so by an even number of players, not {playing}{out} ({})", rules.id, rules.players_clause.at));
        }
        if n < rules.players.0 || n > rules.players.1 || n > MAX_PLAYERS {
            let want = if rules.players.0 == rules.players.1 { rules.players.0.to_string() } else { format!("{} to {}", rules.players.0, rules.players.1) };
            return Err(format!("{} is played by {want} players, not {n} ({})", rules.id, rules.players_clause.at));
        }
        for name in chosen.names() {
            if !rules.options.iter().any(|o| o.name == name) {
                let known: Vec<&str> = rules.options.iter().map(|o| o.name.as_str()).collect();
                return Err(format!("{} has no option `{name}`; its options are: {}", rules.id, if known.is_empty() { "none".to_string() } else { known.join(", ") }));
            }
        }
        for o in &rules.options {
            let v = chosen.chosen(&o.name).unwrap_or_else(|| o.default.clone());
            if !o.choices.contains(&v) {
                let choices: Vec<String> = o.choices.iter().map(|c| c.to_string()).collect();
                return Err(format!("option `{}` cannot be {v}; choose one of {}", o.name, choices.join(", ")));
            }
        }
        Ok(())
    }

    /// The rules as they stand once contract `c` has won the auction: the same as before it unless a
    /// setting that applies after the auction reads the contract.
    pub fn after_auction(&self, c: usize) -> &Setup<'r> {
        self.contracts.get(c).unwrap_or(self)
    }
}

impl Ruleset {
    /// The ruleset whose pack these options choose: itself, or, where the Fool is a trump by an
    /// option (`fool "name" trump = condition`), the ruleset compiled the other way when the
    /// condition says so.
    pub fn with_pack_for<C: ChosenOptions + ?Sized>(&self, n: usize, chosen: &C) -> Result<&Ruleset, String> {
        let Some(v) = &self.fool_variant else { return Ok(self) };
        let s = Settings::new(self, n, chosen, None)?;
        let trump = s.eval_setup(&v.when).and_then(|x| truthy(&x)).map_err(|e| format!("{} ({}): {e}", v.clause.rule, v.clause.at))?;
        Ok(if trump == self.pack.cards.contains(crate::cards::FOOL) { &v.rules } else { self })
    }
}

impl Settings {
    /// The settings before the auction, and, where a setting that applies after it reads the
    /// contract, the settings for each contract (`after_auction`), all worked out at once so that a
    /// formula that fails for one contract is reported before the game starts.
    fn with_contracts<C: ChosenOptions + ?Sized>(rules: &Ruleset, n: usize, chosen: &C) -> Result<Settings, String> {
        let mut s = Settings::new(rules, n, chosen, None)?;
        if let (true, Some(b)) = (rules.reads_contract, &rules.bidding) {
            for (c, contract) in b.contracts.iter().enumerate() {
                // The same formula gives each contract its own value: say which one fails.
                let settings = Settings::new(rules, n, chosen, Some(c)).map_err(|e| format!("with the contract `{}`: {e}", contract.name))?;
                s.after_auction.push(Arc::new(settings));
            }
        }
        Ok(s)
    }

    fn new<C: ChosenOptions + ?Sized>(rules: &Ruleset, n: usize, chosen: &C, contract: Option<usize>) -> Result<Settings, String> {
        Setup::table_fits(rules, n, chosen)?;
        // At a table where the dealer sits out, one fewer play.
        let table = n;
        let n = if rules.sits_out(n) { n.saturating_sub(1) } else { n };
        let mut options = vec![];
        for o in &rules.options {
            let v = chosen.chosen(&o.name).unwrap_or_else(|| o.default.clone());
            options.push(v.to_value().ok_or_else(|| format!("option `{}`: unreadable value {v}", o.name))?);
        }
        let mut s = Settings {
            n,
            table,
            options,
            constants: vec![],
            hand: 0,
            dealer_hand: 0,
            dog: 0,
            piles: 0,
            pile_size: 0,
            strength: rules.pack.strength,
            counting: None,
            forbid: None,
            hold_seniority: false,
            fool_led_forbidden: false,
            fool_exchange: false,
            fool_last: FoolLast::Keep,
            fool_shut_out: false,
            fool_slam_played: false,
            fool_deadline: 0,
            call_levels: 0,
            contract_dogs: vec![],
            reserve_contracts: vec![],
            packets: vec![],
            dog_packet: None,
            dog_apart: 0,
            dog_after: None,
            clockwise: false,
            discard_taker: 0,
            discard_dealer: 0,
            discard_others: 0,
            keeps: vec![],
            wins_with: vec![],
            trumps_win: true,
            talon_packets: 0,
            talon_rest_taker: false,
            talon_given: 0,
            buy_cards: 0,
            talon_discard_first: false,
            talon_split: 0,
            follow: None,
            trump: None,
            overtrump: None,
            beat: None,
            contract: None,
            after_auction: vec![],
        };
        s.deal(rules, n)?;
        s.pack(rules)?;
        s.bidding(rules, contract)?;
        s.discard_forbidden(rules)?;
        // The settings that apply after the auction are worked out without a contract only where none
        // of them reads it; otherwise once for each contract (`with_contracts`), the contract's
        // attributes first (`bidding`).
        let after = contract.is_some() || !rules.reads_contract;
        s.fool(rules, after)?;
        s.call(rules, after)?;
        // The talon and the taker's discard matter only where the contract gives him the dog.
        let takes_dog = contract.is_none_or(|c| s.contract_dogs.get(c) == Some(&DogUse::Taker));
        s.talon(rules, after, takes_dog)?;
        s.buy(rules, after)?;
        s.discard_sizes(rules, after, takes_dog)?;
        s.play(rules, after)?;
        Ok(s)
    }

    /// `deal { ... }`: the dog's size first (constants and hand sizes may refer to it, `deal.dog`),
    /// the top-level constants, the hands, piles and packets, the dog's packets and ends.
    fn deal(&mut self, rules: &Ruleset, n: usize) -> Result<(), String> {
        // The dog's size first: constants and hand sizes may refer to it (`deal.dog`).
        let dog = rules.deal.dog.as_ref().map(|e| self.eval_setup(e)).transpose()?;
        self.dog = match dog {
            None => 0,
            Some(Value::Num(q)) if q.is_integer() && q >= Q::ZERO => q.numer() as usize,
            Some(other) => return Err(format!("the dog must be a number of cards, not {other:?} ({})", rules.deal.clause.at)),
        };
        // A `let` that fails at this table is an error only where a formula that is evaluated reads it.
        for l in &rules.constants {
            let v = self.eval_setup(&l.expr).map_err(|e| l.failed(None, &e));
            self.constants.push(v);
        }
        self.hand = count(self, &Some(rules.deal.hand.clone())).map_err(setting(rules, "deal.hand"))?;
        self.dealer_hand = match &rules.deal.dealer {
            Some(_) => count(self, &rules.deal.dealer).map_err(setting(rules, "deal.dealer"))?,
            None => self.hand,
        };
        if let Some((count_e, size_e)) = &rules.deal.piles {
            self.piles = count(self, &Some(count_e.clone())).map_err(setting(rules, "deal.piles"))?;
            self.pile_size = count(self, &Some(size_e.clone())).map_err(setting(rules, "deal.pile_size"))?;
        }
        let dealt = self.hand * (n - 1) + self.dealer_hand + self.dog + n * self.piles * self.pile_size;
        if dealt != rules.pack.cards.len() {
            return Err(format!(
                "with {n} players the deal gives out {dealt} cards ({} each, {} to the dealer, {} to the dog, {} in piles) but the pack has {} ({})",
                self.hand,
                self.dealer_hand,
                self.dog,
                n * self.piles * self.pile_size,
                rules.pack.cards.len(),
                rules.deal.clause.at
            ));
        }
        if let Some((e, c)) = &rules.deal.packets {
            let others = self.packet_orders(e, self.hand).map_err(at(c))?;
            let dealer = match &rules.deal.dealer_packets {
                Some((e, c)) => self.packet_orders(e, self.dealer_hand).map_err(at(c))?,
                None if self.dealer_hand == self.hand => others.clone(),
                // The others' orders for the dealer, whose hand may differ: checked against it.
                None => self.packet_orders(e, self.dealer_hand).map_err(at(c))?,
            };
            // The dealer chooses one order for the whole deal: his own packets go with it.
            self.packets = match (others.len(), dealer.len()) {
                (_, 1) => others.into_iter().map(|o| (o, dealer[0].clone())).collect(),
                (1, _) => dealer.into_iter().map(|d| (others[0].clone(), d)).collect(),
                (a, b) if a == b => others.into_iter().zip(dealer).collect(),
                (a, b) => {
                    return Err(at(rules.deal.dealer_packets.as_ref().map_or(c, |(_, c)| c))(format!(
                        "the dealer chooses one of {a} orders for the players' packets, and {b} for his own: each of his must go with one of theirs, so give as many, or one"
                    )))
                }
            };
        }
        if let Some((e, c)) = &rules.deal.dog_packets {
            let k = count(self, &Some(e.clone())).map_err(at(c))?;
            if k == 0 || !self.dog.is_multiple_of(k) {
                return Err(at(c)(format!("the dog of {} cards cannot be dealt {k} at a time", self.dog)));
            }
            self.dog_packet = Some(k);
        }
        if let Some((e, c)) = &rules.deal.dog_after {
            let r = count(self, &Some(e.clone())).map_err(at(c))?;
            // Every order the dealer may choose must have the rounds.
            let rounds = self.packets.iter().map(|(o, d)| o.len().max(d.len())).min().unwrap_or(0);
            if r > rounds {
                return Err(at(c)(format!("the dog cannot be dealt after {r} rounds of packets: the deal has {rounds}")));
            }
            self.dog_after = Some(r);
        }
        if let Some((e, c)) = &rules.deal.dog_apart {
            self.dog_apart = count(self, &Some(e.clone())).map_err(at(c))?;
            if 2 * self.dog_apart + self.dog > rules.pack.cards.len() {
                return Err(at(c)(format!(
                    "with {} cards kept from the dog at each end, a pack of {} has no room for a dog of {}",
                    self.dog_apart,
                    rules.pack.cards.len(),
                    self.dog
                )));
            }
        }
        Ok(())
    }

    /// A `packets` setting's orders: a number (packets of that size until the hand is full), a list
    /// (the sizes round by round), or a list of such lists, the orders the dealer chooses among
    /// (two or more, each its own); every order must make the hand.
    fn packet_orders(&self, e: &Expr, hand: usize) -> Result<Vec<Vec<usize>>, String> {
        let size = |v: &Value| match v {
            Value::Num(q) if q.is_integer() && *q > Q::ZERO => Ok(q.numer() as usize),
            other => Err(format!("a packet is a number of cards, not {other:?}")),
        };
        let orders: Vec<Vec<usize>> = match self.eval_setup(e)? {
            Value::Num(q) if q.is_integer() && q > Q::ZERO => vec![vec![q.numer() as usize; hand / q.numer().max(1) as usize]],
            Value::List(l) if l.iter().any(|v| matches!(v, Value::List(_))) => {
                let orders = l
                    .iter()
                    .map(|v| match v {
                        Value::List(o) => o.iter().map(size).collect::<Result<Vec<_>, _>>(),
                        other => Err(format!("a list of orders to choose from holds lists of packets, not {other:?}")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if orders.len() < 2 {
                    return Err(format!("one order to choose from, {:?}: write it alone", orders.first().cloned().unwrap_or_default()));
                }
                if let Some(twice) = orders.iter().enumerate().find_map(|(i, o)| orders[..i].contains(o).then_some(o)) {
                    return Err(format!("the order {twice:?} is given twice among the orders to choose from"));
                }
                orders
            }
            Value::List(l) => vec![l.iter().map(size).collect::<Result<_, _>>()?],
            other => return Err(format!("packets are a number of cards or a list of them, not {other:?}")),
        };
        for list in &orders {
            if list.iter().sum::<usize>() != hand {
                return Err(format!("packets of {list:?} make {} cards, not the hand of {hand}", list.iter().sum::<usize>()));
            }
        }
        Ok(orders)
    }

    /// `pack { ... }` and `counting { ... }`: the numerals reversed, the trumps' order, the counters
    /// that follow options.
    fn pack(&mut self, rules: &Ruleset) -> Result<(), String> {
        self.reverse_numerals(rules)?;
        self.order_trumps(rules)?;
        if !rules.counting.by_option.is_empty() || rules.counting.group_by_option.is_some() {
            let counting = super::counting::counting_for(&rules.counting, &|e| self.eval_setup(e))?;
            self.counting = Some(counting);
        }
        Ok(())
    }

    /// `bidding { ... }`: the hold, the contract's attributes (when worked out for one), the
    /// reserving bid's contracts, each contract's dog.
    fn bidding(&mut self, rules: &Ruleset, contract: Option<usize>) -> Result<(), String> {
        if let Some(w) = rules.bidding.as_ref().and_then(|b| b.hold_by.as_ref()) {
            self.hold_seniority = self.word(w).map_err(|e| format!("bidding.hold: {e}"))? == Hold::Seniority;
        }
        if let (Some(c), Some(b)) = (contract, &rules.bidding) {
            let k = &b.contracts[c];
            let attrs = k.attrs.iter().map(|(a, e)| self.eval_setup(e).map(|v| (a.clone(), v)).map_err(at(&k.clause))).collect::<Result<Vec<_>, _>>()?;
            self.contract = Some((k.name.as_str().into(), attrs));
        }
        if let Some(r) = rules.bidding.as_ref().and_then(|b| b.reserve.as_ref().map(|r| (b, r))) {
            let (b, r) = r;
            let names = match self.eval_setup(&r.contracts)? {
                Value::List(l) => l
                    .iter()
                    .map(|v| if let Value::Str(t) = v { Ok(t.clone()) } else { Err(format!("`{}` lists contract names ({})", r.name, r.clause.at)) })
                    .collect::<Result<Vec<_>, _>>()?,
                _ => return Err(format!("`{}` lists contract names ({})", r.name, r.clause.at)),
            };
            for name in names {
                let i = b
                    .contracts
                    .iter()
                    .position(|c| *c.name == *name)
                    .ok_or_else(|| format!("`{}` names a contract `{name}` the bidding does not have ({})", r.name, r.clause.at))?;
                self.reserve_contracts.push(i);
            }
        }
        if let Some(b) = &rules.bidding {
            for c in &b.contracts {
                let dog = self.word(&c.dog).map_err(at(&c.clause))?;
                self.contract_dogs.push(dog);
            }
        }
        Ok(())
    }

    /// `discard { forbid ... }` where it follows options.
    fn discard_forbidden(&mut self, rules: &Ruleset) -> Result<(), String> {
        if let Some(d) = rules.discard.as_ref().filter(|d| !d.forbid_by_option.is_empty()) {
            let mut forbid = d.forbid.clone();
            for (i, e) in &d.forbid_by_option {
                forbid[*i].cards = match self.eval_setup(e)? {
                    Value::Cards(set) => set,
                    other => return Err(format!("{}: the forbidden cards, not {}", forbid[*i].clause.at, other.type_name())),
                };
            }
            self.forbid = Some(forbid);
        }
        Ok(())
    }

    /// `fool { ... }`: its word settings (after the auction) and its deadline.
    fn fool(&mut self, rules: &Ruleset, after: bool) -> Result<(), String> {
        let fool = &rules.fool;
        if after {
            self.fool_led_forbidden = self.word(&fool.led).map_err(at(&fool.clause))? == FoolLed::Forbidden;
            self.fool_exchange = self.word(&fool.keep).map_err(at(&fool.clause))? == FoolKeep::Exchange;
            self.fool_last = self.word(&fool.last_trick).map_err(at(&fool.clause))?;
            self.fool_shut_out = match &fool.shut_out {
                Some(w) => self.word(w).map_err(at(&fool.clause))? == FoolShutOut::ToWinner,
                None => false,
            };
            self.fool_slam_played = match &fool.slam_wins_when {
                Some(w) => self.word(w).map_err(at(&fool.clause))? == FoolSlamWins::Played,
                None => false,
            };
        }
        if let Some((e, c)) = &rules.fool.deadline {
            self.fool_deadline = match self.eval_setup(e).map_err(at(c))? {
                Value::Num(q) if q.is_integer() && q >= Q::ZERO => q.numer() as usize,
                other => return Err(at(c)(format!("the fool's `deadline` is a number of tricks (0, 1, 2, ...), not {other:?}"))),
            };
        }
        Ok(())
    }

    /// `call { ... }`: the levels that may be called.
    fn call(&mut self, rules: &Ruleset, after: bool) -> Result<(), String> {
        if let (Some(call), true) = (&rules.call, after) {
            self.call_levels = match &call.callable_levels {
                Some((e, c)) => count(self, &Some(e.clone())).map_err(at(c))?.min(call.levels.len()),
                None => call.levels.len(),
            };
        }
        Ok(())
    }

    /// `talon { ... }`, where the taker takes the dog; and, where the talon's `rest` is read packet by
    /// packet, where he does not (its packets then go as `rest` says for each).
    fn talon(&mut self, rules: &Ruleset, after: bool, takes_dog: bool) -> Result<(), String> {
        let per_packet = rules.talon.as_ref().is_some_and(|t| t.rest_per_packet);
        if let (Some(t), true) = (&rules.talon, after && (takes_dog || per_packet)) {
            self.talon_packets = count(self, &Some(t.packets.clone())).map_err(at(&t.clause))?;
            if self.talon_packets == 0 || !self.dog.is_multiple_of(self.talon_packets) {
                return Err(at(&t.clause)(format!("the dog of {} cards cannot be cut into {} packets of equal size", self.dog, self.talon_packets)));
            }
            if !takes_dog {
                return Ok(());
            }
            // A `rest` that reads the game is read for each packet as it goes (`Game::packet_to_taker`).
            if let (Some((w, clause)), false) = (&t.rest, t.rest_per_packet) {
                self.talon_rest_taker = self.word(w).map_err(at(clause))? == TalonRest::Taker;
            }
            if let Some(w) = &t.discard {
                self.talon_discard_first = self.word(w).map_err(at(&t.clause))? == TalonDiscard::Before;
            }
            if let Some((e, clause)) = &t.given {
                self.talon_given = count(self, &Some(e.clone())).map_err(at(clause))?;
                if self.talon_given > self.talon_packets {
                    return Err(at(clause)(format!("the talon's `given` names packet {}, but it is cut into {} packets", self.talon_given, self.talon_packets)));
                }
            }
        }
        Ok(())
    }

    /// `buy { ... }`.
    fn buy(&mut self, rules: &Ruleset, after: bool) -> Result<(), String> {
        if let (Some(b), true) = (&rules.buy, after) {
            self.buy_cards = count(self, &Some(b.cards.clone())).map_err(at(&b.clause))?;
        }
        Ok(())
    }

    /// `discard { ... }`: how many cards each discards.
    fn discard_sizes(&mut self, rules: &Ruleset, after: bool, takes_dog: bool) -> Result<(), String> {
        if let (Some(d), true) = (&rules.discard, after) {
            self.discard_taker = if takes_dog { count(self, &d.taker).map_err(setting(rules, "discard.taker"))? } else { 0 };
            self.discard_dealer = count(self, &d.dealer).map_err(setting(rules, "discard.dealer"))?;
            self.discard_others = count(self, &d.others).map_err(setting(rules, "discard.others"))?;
        }
        // `talon { split = N }`: the part of the taker's discard laid away before the talon.
        if let (Some((e, clause)), true) = (rules.talon.as_ref().and_then(|t| t.split.as_ref()), after && takes_dog) {
            self.talon_split = count(self, &Some(e.clone())).map_err(at(clause))?;
            if self.talon_split > self.discard_taker {
                return Err(at(clause)(format!("the talon's `split` lays {} cards away before the talon, but the taker owes {}", self.talon_split, self.discard_taker)));
            }
        }
        Ok(())
    }

    /// `play { ... }`: the direction, the kept cards, `wins`, `trumps-win`, the obligations that hold.
    fn play(&mut self, rules: &Ruleset, after: bool) -> Result<(), String> {
        if let Some((w, c)) = &rules.play.direction {
            self.clockwise = self.word(w).map_err(at(c))? == Direction::Clockwise;
        }
        for k in rules.play.keeps.iter().filter(|_| after) {
            let cards = match self.eval_setup(&k.cards).map_err(at(&k.clause))? {
                Value::Cards(cards) => cards,
                other => return Err(at(&k.clause)(format!("`{}` gives cards, not {}", if k.last_trump { "last-trump" } else { "keep" }, other.type_name()))),
            };
            self.keeps.push(cards);
        }
        for w in rules.play.wins.iter().filter(|_| after) {
            match self.eval_setup(&w.with).map_err(at(&w.clause))? {
                Value::Cards(cards) => self.wins_with.push(cards),
                other => return Err(at(&w.clause)(format!("`wins` gives the cards that must be in the trick, not {}", other.type_name()))),
            }
        }
        if let (Some((e, c)), true) = (&rules.play.trumps_win, after) {
            self.trumps_win = self.eval_setup(e).and_then(|v| truthy(&v)).map_err(at(c))?;
        }
        for (i, (o, c)) in rules.play.ladder.iter().enumerate().filter(|_| after) {
            if let Some(Some(when)) = rules.play.ladder_when.get(i) {
                if !self.eval_setup(when).and_then(|v| truthy(&v)).map_err(at(c))? {
                    continue;
                }
            }
            match o {
                Obligation::Follow => self.follow = Some(i),
                Obligation::Trump => self.trump = Some(i),
                Obligation::Overtrump => self.overtrump = Some(i),
                Obligation::Beat => self.beat = Some(i),
            }
        }
        Ok(())
    }

    pub(crate) fn eval_setup(&self, e: &Expr) -> Result<Value, String> {
        eval(e, &SetupEnv(self))
    }

    /// A word setting (resolved by the compiler) for the options chosen and the contract.
    pub(crate) fn word<T: Words>(&self, w: &Choice<T>) -> Result<T, String> {
        w.get(&SetupEnv(self))
    }
}

/// A setting that is a number of cards (0 where the rules give none).
fn count(s: &Settings, e: &Option<Expr>) -> Result<usize, String> {
    match e {
        None => Ok(0),
        Some(e) => match s.eval_setup(e)? {
            Value::Num(q) if q.is_integer() && q >= Q::ZERO => Ok(q.numer() as usize),
            other => Err(format!("expected a number of cards, found {other:?}")),
        },
    }
}

/// A setting's error, naming its rule and where it is written.
pub(super) fn at(c: &Clause) -> impl Fn(String) -> String + '_ {
    move |m| format!("{} ({}): {m}", c.rule, c.at)
}

/// `at` for a setting the IR keeps no clause beside (the deal's and the discard's sizes): its clause
/// is the one the ruleset remembers for `rule` (`Ruleset::settings`).
fn setting<'a>(rules: &'a Ruleset, rule: &'a str) -> impl Fn(String) -> String + 'a {
    move |m| match rules.settings.get(rule) {
        Some(c) => format!("{} ({}): {m}", c.rule, c.at),
        None => format!("{rule}: {m}"),
    }
}

pub(super) struct SetupEnv<'a>(pub(super) &'a Settings);

impl Env for SetupEnv<'_> {
    fn option(&self, i: usize) -> Value {
        self.0.options[i].clone()
    }
    fn let_value(&self, i: usize) -> Result<Value, String> {
        match self.0.constants.get(i) {
            Some(v) => v.clone().map_err(|e| e.to_string()),
            None => Err("a constant is used before it is defined".into()),
        }
    }
    fn fact(&self, f: Fact) -> Result<Value, String> {
        match f {
            Fact::Players => Ok(Value::Players((1u16 << self.0.n) - 1)),
            Fact::DogSize => Ok(Value::Num(Q::int(self.0.dog as i64))),
            Fact::Table => Ok(Value::Num(Q::int(self.0.table as i64))),
            other => Err(format!("{other:?} is not known before the deal")),
        }
    }
    fn attr(&self, name: &str) -> Result<Value, String> {
        match &self.0.contract {
            Some((contract, attrs)) => match attrs.iter().find(|(a, _)| a == name) {
                Some((_, v)) => Ok(v.clone()),
                None if name == "name" => Ok(Value::Str(contract.clone())),
                None => Err(format!("contract {contract} has no {name}")),
            },
            None => Err(format!("contract.{name} is not known before the bidding")),
        }
    }
    fn game_func(&self, f: Func, _: &[Value]) -> Result<Value, String> {
        Err(format!("{f:?} looks at a game, and there is none yet"))
    }
}

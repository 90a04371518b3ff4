//! The deal and the table before it: a shuffled pack dealt as the rules deal it (a strong hand
//! stacked where steering asks), in packets where they are recorded, and the standings a match carries in.

use super::*;

/// A random deal for `setup`: hands (dealer's longer if the rules say so), the dog and the cut card.
pub fn random_deal<R: Rng>(setup: &Setup, names: &[String], dealer: u8, rng: &mut R) -> Event {
    random_deal_with(setup, names, dealer, &SimOptions::default(), rng).0
}

/// A random deal, steered as `sim` says; also the seat dealt the strong hand, if one was.
pub fn random_deal_with<R: Rng>(setup: &Setup, names: &[String], dealer: u8, sim: &SimOptions, rng: &mut R) -> (Event, Option<u8>) {
    let mut pack: Vec<Card> = setup.rules.pack.cards.iter().collect();
    pack.shuffle(rng);
    let mut strong = None;
    if sim.strong_hand > 0.0 && rng.gen_bool(sim.strong_hand) {
        let p = rng.gen_range(0..setup.n);
        strong = Some(p as u8);
        stack_strong_hand(setup, dealer, p, &mut pack, rng);
    }
    let mut hands: BTreeMap<Text, Vec<Text>> = BTreeMap::new();
    let mut at = 0;
    for (p, name) in names.iter().enumerate().take(setup.n) {
        let k = if p as u8 == dealer { setup.dealer_hand } else { setup.hand };
        hands.insert(name.as_str().into(), pack[at..at + k].iter().map(|c| c.code()).collect());
        at += k;
    }
    let mut piles = BTreeMap::new();
    if setup.piles > 0 {
        for name in names.iter().take(setup.n) {
            let mine: Vec<Vec<Text>> = (0..setup.piles)
                .map(|_| {
                    let pile = pack[at..at + setup.pile_size].iter().map(|c| c.code()).collect();
                    at += setup.pile_size;
                    pile
                })
                .collect();
            piles.insert(Text::from(name.as_str()), mine);
        }
    }
    let dog: Vec<Text> = pack[at..].iter().map(|c| c.code()).collect();
    let cut = setup.rules.deal.cut.is_some().then(|| hands[names[dealer as usize].as_str()].choose(rng).cloned()).flatten();
    // Where the rules leave the order of the packets to the dealer, he picks one (the only draw here
    // for it: a ruleset with one order draws nothing).
    let order = if setup.packets.len() > 1 { rng.gen_range(0..setup.packets.len()) } else { 0 };
    let packets = if setup.piles == 0 { in_packets(setup, names, dealer, order, &hands, &dog, cut.as_ref()) } else { vec![] };
    (Event::Deal { hands, dog, cut, piles, packets }, strong)
}

/// Moves into seat `p`'s part of the shuffled `pack` one of these, drawn evenly: a run of the highest
/// trumps (from half his hand to all of it) with, half the time, the Fool; the cards some declaration
/// shows (as many as the hand holds, drawn at random; not one that gives the deal up); or, where the taker calls a card, the whole of
/// the first one, two or three levels he may call (so that a taker holding them calls a lower rank).
/// The other cards keep their shuffled order.
pub(super) fn stack_strong_hand<R: Rng>(setup: &Setup, dealer: u8, p: usize, pack: &mut Vec<Card>, rng: &mut R) {
    let rules = setup.rules;
    let size = |q: usize| if q == dealer as usize { setup.dealer_hand } else { setup.hand };
    let start: usize = (0..p).map(size).sum();
    let k = size(p);
    // A declaration that gives the deal up (`ends-deal`) is no strength to deal for.
    let mut stacks: Vec<CardSet> = rules.declarations.iter().filter(|d| d.ends_deal.is_none()).map(|d| d.shows.and(rules.pack.cards)).filter(|s| !s.is_empty()).collect();
    if let Some(call) = &rules.call {
        for levels in 1..call.levels.len() {
            stacks.push(call.levels[..levels].iter().fold(CardSet::EMPTY, |a, l| a.or(*l)).and(rules.pack.cards));
        }
    }
    let pick = rng.gen_range(0..stacks.len() + 1);
    let mut chosen: Vec<Card> = if pick == stacks.len() {
        let mut trumps: Vec<Card> = rules.pack.cards.and(CardSet::trumps()).iter().collect();
        trumps.sort_by_key(|c| std::cmp::Reverse(rules.pack.strength[c.0 as usize]));
        let with_fool = rules.pack.cards.contains(crate::cards::FOOL) && rng.gen_bool(0.5);
        let room = k.saturating_sub(with_fool as usize);
        let run = rng.gen_range(k / 2..=k).min(room).min(trumps.len());
        let mut run: Vec<Card> = trumps[..run].to_vec();
        if with_fool {
            run.push(crate::cards::FOOL);
        }
        run
    } else {
        let mut cards: Vec<Card> = stacks[pick].iter().collect();
        cards.shuffle(rng);
        cards.truncate(k);
        cards
    };
    chosen.sort_by_key(|c| c.0);
    let mut rest: Vec<Card> = pack.iter().copied().filter(|c| !chosen.contains(c)).collect();
    let at = start.min(rest.len());
    rest.splice(at..at, chosen);
    *pack = rest;
}

/// The deal in the order the rules give, when they give one (`order`, of those the dealer may choose):
/// each player's cards in packets round the table from first hand, the cut card (if any) last, to the
/// dealer, and the dog's cards spread among the players' packets, away from both ends of the pack.
/// Drawn from the hands already dealt, so it takes nothing from the random numbers.
pub(super) fn in_packets(setup: &Setup, names: &[String], dealer: u8, order: usize, hands: &BTreeMap<Text, Vec<Text>>, dog: &[Text], cut: Option<&Text>) -> Vec<Packet> {
    let chosen = order;
    let order = setup.packet_order(dealer, chosen);
    if order.is_empty() {
        return vec![];
    }
    let mut left: Vec<Vec<Text>> = names.iter().map(|p| hands[p.as_str()].clone()).collect();
    if let Some(c) = cut {
        let mine = &mut left[dealer as usize];
        if let Some(i) = mine.iter().position(|x| x == c) {
            let c = mine.remove(i);
            mine.push(c);
        }
    }
    let mut out: Vec<Packet> = order.into_iter().map(|(p, k)| Packet { to: Some(names[p as usize].as_str().into()), cards: left[p as usize].drain(..k).collect() }).collect();
    let k = setup.dog_packet.unwrap_or(1);
    let dogs: Vec<&[Text]> = dog.chunks(k).collect();
    // The dog's packets go between players' packets with at least `dog_apart` cards before and after.
    let total: usize = out.iter().map(|p| p.cards.len()).sum();
    let mut before = 0;
    let mut slots = vec![];
    for i in 1..out.len() {
        before += out[i - 1].cards.len();
        if before >= setup.dog_apart && total - before >= setup.dog_apart {
            slots.push(i);
        }
    }
    for (j, cards) in dogs.iter().enumerate().rev() {
        let after = match setup.dog_after {
            // All together, after so many rounds of the players' packets.
            Some(r) => setup.packets_in_rounds(chosen, r),
            None => slots.get((j + 1) * slots.len() / (dogs.len() + 1)).or(slots.last()).copied().unwrap_or(out.len()),
        };
        out.insert(after, Packet { to: None, cards: cards.to_vec() });
    }
    out
}

/// What a deal carries from the match (the record's `pots` and `standing`), where the ruleset keeps
/// pots or reads the standing: nothing, as a table's first deal, unless `always` or the deal's `require`
/// refuses that; then a draw of `random_carry`, drawn again (up to 200 times) until the deal is allowed.
/// Draws nothing from `rng` otherwise, so the games of a seed stay the same.
pub(super) fn carry<R: Rng>(
    setup: &Setup,
    table: &[String],
    names: &[String],
    dealer: u8,
    deal: &Event,
    sim: &SimOptions,
    rng: &mut R,
) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let always = sim.carry;
    let rules = setup.rules;
    let nothing = (BTreeMap::new(), BTreeMap::new());
    if !rules.reads_standing && rules.pots.is_empty() {
        return nothing;
    }
    let allowed = |(pots, standing): &(BTreeMap<String, i64>, BTreeMap<String, i64>)| {
        let mut game = Game::new(setup, names, dealer);
        game.carry(&rules.pots.iter().map(|pot| crate::num::Q::int(pots.get(&*pot.name).copied().unwrap_or(0))).collect::<Vec<_>>());
        for (i, name) in names.iter().enumerate() {
            game.standing[i] = crate::num::Q::int(standing.get(name).copied().unwrap_or(0));
        }
        !matches!(game.apply(0, deal), Err(crate::replay::Stop::Violation(_)))
    };
    // A match near its end: no draw unless asked for (`match_end`) and the rules read the standing
    // against a target.
    let target = match (&rules.game_match, rules.reads_standing && sim.match_end > 0.0) {
        (Some(m), true) => m.target.as_ref().and_then(|(e, _)| setup.eval_setup(e).ok()).and_then(|v| match v {
            crate::expr::Value::Num(q) if q > crate::num::Q::ZERO && q.is_integer() => Some(q.numer()),
            _ => None,
        }),
        _ => None,
    };
    let near_end = target.filter(|_| rng.gen_bool(sim.match_end));
    if !always && near_end.is_none() && allowed(&nothing) {
        return nothing;
    }
    for _ in 0..200 {
        let drawn = match near_end {
            Some(target) => near_match_end(setup, table, target, rng),
            None => random_carry(setup, table, rng),
        };
        if allowed(&drawn) {
            return drawn;
        }
    }
    nothing
}

/// A plausible match under way: each pot of the ruleset holding 0 to 100 in fives, and (where the
/// ruleset reads the standing) each player's total so far, from -30 to 30, the totals summing to
/// nothing and partners (`sides partners`, seats opposite) sharing theirs.
pub fn random_carry<R: Rng>(setup: &Setup, table: &[String], rng: &mut R) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let rules = setup.rules;
    let pots = rules.pots.iter().map(|pot| (pot.name.to_string(), 5 * rng.gen_range(0..=20))).collect();
    let mut standing = BTreeMap::new();
    if rules.reads_standing {
        let n = table.len();
        let partners = rules.sides == crate::ir::Sides::Partners && n.is_multiple_of(2);
        let accounts = if partners { n / 2 } else { n };
        let mut totals: Vec<i64> = (1..accounts).map(|_| rng.gen_range(-30..=30)).collect();
        totals.push(-totals.iter().sum::<i64>());
        // With partners, a side's total is each partner's: the sides sum to nothing.
        for (i, name) in table.iter().enumerate() {
            standing.insert(name.clone(), totals[i % accounts]);
        }
    }
    (pots, standing)
}

/// A match near its end: each pot as `random_carry` draws it, and each player's standing (each side's,
/// partners alike) drawn from the last tenth below `target`.
pub(super) fn near_match_end<R: Rng>(setup: &Setup, table: &[String], target: i64, rng: &mut R) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let (pots, _) = random_carry(setup, table, rng);
    let n = table.len();
    let partners = setup.rules.sides == crate::ir::Sides::Partners && n.is_multiple_of(2);
    let accounts = if partners { n / 2 } else { n };
    let low = target - (target / 10).max(1);
    let totals: Vec<i64> = (0..accounts).map(|_| rng.gen_range(low..target)).collect();
    (pots, table.iter().enumerate().map(|(i, name)| (name.clone(), totals[i % accounts])).collect())
}

//! Random legal games: a random deal, then at every turn a move chosen uniformly among the legal moves
//! the interpreter itself generates (`Game::next`, `Game::legal`, `Game::discardable`): each bid, each
//! card, each set of cards to discard. Before the first card each optional declaration a player can
//! make is made or not with even chances, showing the largest set of cards the rules accept
//! (`Game::best_show`).

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::Rng;

use crate::cards::{Card, CardSet};
use crate::ir::Ruleset;
use crate::record::{Event, GameRecord, Packet, Text};
use crate::replay::{Game, Phase, Seating, Setup};

pub const NAMES: [&str; 8] = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"];

/// A random deal for `setup`: hands (dealer's longer if the rules say so), the dog and the cut card.
pub fn random_deal<R: Rng>(setup: &Setup, names: &[String], dealer: u8, rng: &mut R) -> Event {
    let mut pack: Vec<Card> = setup.rules.pack.cards.iter().collect();
    pack.shuffle(rng);
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
    let packets = if setup.piles == 0 { in_packets(setup, names, dealer, &hands, &dog, cut.as_ref()) } else { vec![] };
    Event::Deal { hands, dog, cut, piles, packets }
}

/// The deal in the order the rules give, when they give one: each player's cards in packets round the
/// table from first hand, the cut card (if any) last, to the dealer, and the dog's cards spread among
/// the players' packets, away from both ends of the pack. Drawn from the hands already dealt, so it
/// takes nothing from the random numbers.
fn in_packets(setup: &Setup, names: &[String], dealer: u8, hands: &BTreeMap<Text, Vec<Text>>, dog: &[Text], cut: Option<&Text>) -> Vec<Packet> {
    let order = setup.packet_order(dealer);
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
        let after = slots.get((j + 1) * slots.len() / (dogs.len() + 1)).or(slots.last()).copied().unwrap_or(out.len());
        out.insert(after, Packet { to: None, cards: cards.to_vec() });
    }
    out
}

/// Plays a whole game at random. Returns the record, which may end in an annulment.
pub fn random_game<R: Rng>(rules: &Ruleset, players: usize, options: &BTreeMap<String, serde_json::Value>, rng: &mut R) -> Result<GameRecord, String> {
    let setup = Setup::new(rules, players, options)?;
    let table: Vec<String> = NAMES[..players].iter().map(|s| s.to_string()).collect();
    let dealer_at_table = rng.gen_range(0..players);
    let seats = Seating::of(&setup, &table, dealer_at_table);
    let deal = random_deal(&setup, &seats.playing, seats.dealer, rng);
    play_out(&setup, &table, dealer_at_table, seats, deal, options, rng)
}

/// Plays a game at random from a given deal (`deal`, for the players `table`, `dealer` dealing):
/// a deal arranged to show a rule, played out by the simulator.
pub fn random_game_from<R: Rng>(
    rules: &Ruleset,
    table: &[String],
    dealer: usize,
    deal: Event,
    options: &BTreeMap<String, serde_json::Value>,
    rng: &mut R,
) -> Result<GameRecord, String> {
    let setup = Setup::new(rules, table.len(), options)?;
    let seats = Seating::of(&setup, table, dealer);
    play_out(&setup, table, dealer, seats, deal, options, rng)
}

/// Plays out `deal` at `table`, seated as `seats` says (`dealer_at_table` dealing).
fn play_out<R: Rng>(
    setup: &Setup,
    table: &[String],
    dealer_at_table: usize,
    seats: Seating,
    deal: Event,
    options: &BTreeMap<String, serde_json::Value>,
    rng: &mut R,
) -> Result<GameRecord, String> {
    let rules = setup.rules;
    let (names, dealer) = (seats.playing, seats.dealer);
    let mut game = Game::new(setup, &names, dealer);
    let mut events = vec![deal];
    let record = |game: &mut Game, events: &mut Vec<Event>, e: Event| -> Result<bool, String> {
        let i = events.len();
        let r = game.apply(i, &e);
        events.push(e);
        match r {
            Ok(()) => Ok(true),
            Err(crate::replay::Stop::Annulled(_)) => Ok(false),
            Err(crate::replay::Stop::Violation(v)) => Err(format!("the simulator made an illegal move at event {i}: {}", v.message)),
            Err(crate::replay::Stop::Input(e)) => Err(format!("the simulator made an unreadable move: {e}")),
        }
    };
    let deal = events.pop().expect("the deal");
    if !record(&mut game, &mut events, deal)? {
        return Ok(GameRecord { ruleset: rules.id.clone(), options: options.clone(), players: table.to_vec(), dealer: table[dealer_at_table].clone(), description: None, events });
    }
    let mut declared_before_play = false;
    while let Some(next) = game.next() {
        let p = names.iter().position(|n| **n == *next.player).expect("a player") as u8;
        let event = match game.phase {
            Phase::Bidding => {
                let bid = next.legal.choose(rng).ok_or("no legal bid")?;
                Event::Bid { player: next.player.as_ref().into(), bid: bid.as_str().into() }
            }
            Phase::Call => {
                let card = next.legal.choose(rng).ok_or("no card to call")?;
                Event::Call { player: next.player.as_ref().into(), card: card.as_str().into() }
            }
            Phase::Discard => {
                let k = next.count.unwrap_or(0);
                let mut pool: Vec<Card> = game.discardable(p).iter().collect();
                if pool.len() < k {
                    // Unavoidable: complete from cards that are not forbidden outright.
                    let forbidden = rules.discard.iter().flat_map(|d| d.forbid.iter()).fold(CardSet::EMPTY, |a, f| a.or(f.cards));
                    pool = game.hands[p as usize].minus(forbidden).iter().collect();
                }
                pool.shuffle(rng);
                Event::Discard { player: next.player.as_ref().into(), cards: pool.iter().take(k).map(|c| c.code()).collect() }
            }
            _ => {
                if !declared_before_play {
                    declared_before_play = true;
                    for e in random_declarations(rules, &game, rng) {
                        if !record(&mut game, &mut events, e)? {
                            break;
                        }
                    }
                    continue;
                }
                let legal: Vec<Card> = game.legal(p).iter().collect();
                let c = *legal.choose(rng).ok_or("a player has no legal card")?;
                Event::Play { player: next.player.as_ref().into(), card: c.code() }
            }
        };
        if !record(&mut game, &mut events, event)? {
            break;
        }
    }
    Ok(GameRecord { ruleset: rules.id.clone(), options: options.clone(), players: table.to_vec(), dealer: table[dealer_at_table].clone(), description: None, events })
}

/// Declarations a player may make before play: for each kind and player, the largest valid show
/// among the player's cards of that kind (trying the cards in order of strength), made half the time.
fn random_declarations<R: Rng>(rules: &Ruleset, game: &Game, rng: &mut R) -> Vec<Event> {
    let mut out = vec![];
    let n = game.setup.n;
    for d in &rules.declarations {
        for p in 0..n as u8 {
            if d.by_taker && game.taker != Some(p) {
                continue;
            }
            // Declaring or not are the two legal choices; each is as likely.
            if !rng.gen_bool(0.5) {
                continue;
            }
            // The largest show the rules accept (none needed for an announcement such as a chelem).
            let shown = if d.shows.is_empty() { Some(CardSet::EMPTY) } else { game.best_show(p, game.hands[p as usize], d) };
            if let Some(shown) = shown {
                let e = Event::Declare { player: game.names[p as usize].as_ref().into(), declaration: d.name.as_str().into(), cards: shown.iter().map(|c| c.code()).collect() };
                if would_accept(game, &e) {
                    out.push(e);
                }
            }
        }
    }
    out
}

/// Whether the game would accept an event, tried on a copy.
fn would_accept(game: &Game, e: &Event) -> bool {
    let mut copy = game.clone();
    copy.apply(0, e).is_ok()
}

/// Replaces one card play of a recorded game by a card its player holds but may not play there, chosen
/// at random among all such plays. Returns the new record and the index of the replaced event; `None`
/// when no play of the game could have been illegal (every hand always had only legal cards).
pub fn illegal_variant<R: Rng>(rules: &Ruleset, rec: &GameRecord, rng: &mut R) -> Option<(GameRecord, usize)> {
    let setup = Setup::new(rules, rec.players.len(), &rec.options).ok()?;
    let dealer = rec.players.iter().position(|p| *p == rec.dealer)? as u8;
    let mut game = Game::new(&setup, &rec.players, dealer);
    let mut candidates = vec![];
    for (i, e) in rec.events.iter().enumerate() {
        if let Event::Play { player, .. } = e {
            let p = rec.players.iter().position(|n| n == player)? as u8;
            let illegal = game.hands[p as usize].minus(game.legal(p));
            if !illegal.is_empty() {
                candidates.push((i, player.clone(), illegal));
            }
        }
        if game.apply(i, e).is_err() {
            break;
        }
    }
    let (i, player, illegal) = candidates.choose(rng)?;
    let card = illegal.nth(rng.gen_range(0..illegal.len()))?;
    let mut out = rec.clone();
    out.events[*i] = Event::Play { player: player.clone(), card: card.code() };
    Some((out, *i))
}

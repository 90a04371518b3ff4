//! Random legal games: a random deal, then at every turn a move chosen uniformly among the legal moves
//! the interpreter itself generates (`Game::next`, `Game::legal`, `Game::discardable`): each bid, each
//! card, each set of cards to discard. Before the first card each optional declaration a player can
//! make is made or not with even chances, showing the largest set of cards the rules accept
//! (`Game::best_show`).
//!
//! `SimOptions` steers those choices so that the rare cases happen often: a contract drawn evenly (or
//! one contract only) instead of uniform bids, which almost never let a low contract win; a deal that
//! gives one player a strong hand (a long run of the highest trumps, the cards of a declaration, the
//! ranks a taker may call), who plays to take every trick: poignées, chelems, defence chelems, calls of
//! a queen or a jack; the Fool and the lowest trump held back to the end; a card that may be withheld
//! from the trump obligations held back until it is. Steering only changes which
//! legal move is chosen, and how the pack is shuffled: every move still comes from the interpreter's own
//! lists, so replay accepts every game the simulator writes.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::Rng;

use crate::cards::{Card, CardSet};
use crate::ir::{Ruleset, When};
use crate::record::{Event, GameRecord, Packet, Text};
use crate::replay::{Game, Phase, Seating, Setup};

pub const NAMES: [&str; 8] = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"];

/// How the simulator chooses among the legal moves. `SimOptions::default()` is the uniform simulator
/// (every bid, card and declaration as likely as the others), and draws exactly the random numbers it
/// always drew, so seeded games stay the same; `SimOptions::steered()` exercises the rare cases.
#[derive(Clone, Debug, PartialEq)]
pub struct SimOptions {
    /// Which contract the bidding aims at.
    pub contract: ContractChoice,
    /// The chance that a deal gives one player (drawn at random) a strong hand: a run of the highest
    /// trumps, the cards of a declaration, or the ranks a taker may call (see `stack_strong_hand`). Half
    /// the time, that player is then the one who takes.
    pub strong_hand: f64,
    /// Whether the player dealt the strong hand plays, every time, his highest legal card (trumps
    /// first, the Fool last of all), as a player who means to take every trick does.
    pub strong_plays_high: bool,
    /// The chance that, in a game, the Fool is held back as long as another card is legal, so that it
    /// goes to the last trick (led there or played to it).
    pub hold_excuse: f64,
    /// The chance that, in a game, the lowest trump (the Petit, the Pagat) is held back as long as
    /// another card is legal, then played as soon as it is legal once its player has two cards left (half
    /// of these games) or one: au bout, in the Ultimo, or in the trick before.
    pub hold_petit: f64,
    /// The chance that, in a game, the cards a player may withhold from the trump obligations (`play {
    /// withhold }`) are held back as long as another card is legal: so their holder withholds them
    /// whenever a trump is due of him and they are his only trumps. Drawn only where the rules have a
    /// `withhold`, so that the other rulesets' seeded games stay the same.
    pub withhold: f64,
    /// The chance that each declaration that shows cards (a poignée, Marolles' Tarots) is made when the
    /// hand allows it.
    pub declare: f64,
    /// The chance that an announcement (a declaration that shows no card, such as a chelem) is made:
    /// by the player dealt the strong hand, and by any other player.
    pub announce_strong: f64,
    pub announce: f64,
    /// Whether every deal is one of a match under way, where the ruleset keeps pots (`pot`) or reads
    /// the match so far (`carried(p)`): the record carries pots and a standing drawn at random
    /// (`random_carry`). Otherwise a deal is a table's first, carrying nothing, unless its `deal {
    /// require }` refuses that: then it carries what is drawn until the deal is allowed.
    pub carry: bool,
    /// The chance that a deal is one of a match near its end, where the ruleset reads the standing and
    /// its `match` has a `target`: each player's standing drawn from the last tenth below the target
    /// (partners alike), so that a declaration that needs the match almost won (Tarocchini's dealer
    /// calling himself out right after the deal, `when after-deal`) can be made. 0 in both presets,
    /// so their seeded games stay the same.
    pub match_end: f64,
    /// The chance that a game steered to a contract the auction's winner may raise to at his last
    /// word (`bidding { raise }`) reaches it that way: the auction is steered to the contract raised
    /// from, and the winner names the target at his last word. 0 in both presets, so their seeded
    /// games stay the same.
    pub last_word: f64,
    /// The chance that a taker who calls a card (`call`) calls one that lies in the dog, where one
    /// may be called: the called card in the talon, which leaves him alone, reached on purpose. 0 in
    /// both presets, so their seeded games stay the same.
    pub call_dog: f64,
    /// The chance that a player to whom a declaration that ends the deal unplayed (`ends-deal`) is
    /// open makes it: giving up (Königrufen's Schleifen, the called king seen in the talon), reached
    /// on purpose. 0 in both presets, so their seeded games stay the same.
    pub end_deal: f64,
}

/// Which contract the bidding aims at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContractChoice {
    /// Each bid uniform among the legal bids (pass included).
    Uniform,
    /// One contract drawn uniformly for each game, bid by a player drawn uniformly among the speakers
    /// (the players before him pass or, a quarter of the time, bid a lower contract), everyone else
    /// passing: every contract wins as often as the others.
    Even,
    /// Only this contract (its name in the ruleset), bid as with `Even`.
    Only(String),
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            contract: ContractChoice::Uniform,
            strong_hand: 0.0,
            strong_plays_high: false,
            hold_excuse: 0.0,
            hold_petit: 0.0,
            withhold: 0.0,
            declare: 0.5,
            announce_strong: 0.5,
            announce: 0.5,
            carry: false,
            match_end: 0.0,
            last_word: 0.0,
            call_dog: 0.0,
            end_deal: 0.0,
        }
    }
}

impl SimOptions {
    /// Every contract evenly, a strong hand in a third of the deals (announcing its chelem most of the
    /// time), the Fool held back in half the games, the lowest trump in half the games, and the cards
    /// that may be withheld in half the games.
    pub fn steered() -> Self {
        SimOptions {
            contract: ContractChoice::Even,
            strong_hand: 1.0 / 3.0,
            strong_plays_high: true,
            hold_excuse: 0.5,
            hold_petit: 0.5,
            withhold: 0.5,
            declare: 0.5,
            announce_strong: 0.75,
            announce: 0.05,
            carry: false,
            match_end: 0.0,
            last_word: 0.0,
            call_dog: 0.0,
            end_deal: 0.0,
        }
    }

    fn is_uniform(&self) -> bool {
        *self == SimOptions::default()
    }
}

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
    let packets = if setup.piles == 0 { in_packets(setup, names, dealer, &hands, &dog, cut.as_ref()) } else { vec![] };
    (Event::Deal { hands, dog, cut, piles, packets }, strong)
}

/// Moves into seat `p`'s part of the shuffled `pack` one of these, drawn evenly: a run of the highest
/// trumps (from half his hand to all of it) with, half the time, the Fool; the cards some declaration
/// shows (as many as the hand holds, drawn at random; not one that gives the deal up); or, where the taker calls a card, the whole of
/// the first one, two or three levels he may call (so that a taker holding them calls a lower rank).
/// The other cards keep their shuffled order.
fn stack_strong_hand<R: Rng>(setup: &Setup, dealer: u8, p: usize, pack: &mut Vec<Card>, rng: &mut R) {
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
        let after = match setup.dog_after {
            // All together, after so many rounds of the players' packets.
            Some(r) => setup.packets_in_rounds(r),
            None => slots.get((j + 1) * slots.len() / (dogs.len() + 1)).or(slots.last()).copied().unwrap_or(out.len()),
        };
        out.insert(after, Packet { to: None, cards: cards.to_vec() });
    }
    out
}

/// Plays a whole game at random. Returns the record, which may end in an annulment.
pub fn random_game<R: Rng>(rules: &Ruleset, players: usize, options: &BTreeMap<String, serde_json::Value>, rng: &mut R) -> Result<GameRecord, String> {
    random_game_with(rules, players, options, &SimOptions::default(), rng)
}

/// Plays a whole game, choosing among the legal moves as `sim` says.
pub fn random_game_with<R: Rng>(rules: &Ruleset, players: usize, options: &BTreeMap<String, serde_json::Value>, sim: &SimOptions, rng: &mut R) -> Result<GameRecord, String> {
    let setup = Setup::new(rules, players, options)?;
    if let ContractChoice::Only(name) = &sim.contract {
        let contracts = rules.bidding.as_ref().map(|b| b.contracts.iter().map(|c| c.name.clone()).collect::<Vec<_>>()).unwrap_or_default();
        if !contracts.contains(name) {
            return Err(format!("{} has no contract `{name}`; its contracts: {}", rules.id, if contracts.is_empty() { "none".into() } else { contracts.join(", ") }));
        }
    }
    let table: Vec<String> = NAMES[..players].iter().map(|s| s.to_string()).collect();
    // A deal where its taker can lay away no discard the requirements allow is dealt again: one hard
    // deal never costs the run.
    let mut stuck = String::new();
    for _ in 0..REDEALS {
        let dealer_at_table = rng.gen_range(0..players);
        let seats = Seating::of(&setup, &table, dealer_at_table);
        let (deal, strong) = random_deal_with(&setup, &seats.playing, seats.dealer, sim, rng);
        match play_out(&setup, &table, dealer_at_table, seats, deal, options, sim, strong, rng) {
            Ok(record) => return Ok(record),
            Err(Failed::NoLawfulDiscard(why)) => stuck = why,
            Err(Failed::Other(e)) => return Err(e),
        }
    }
    Err(format!("{}: in {REDEALS} deals in a row the taker could lay away no discard the rules allow (the last: {stuck}); the `require`s of its `discard` section may be impossible to meet together", rules.id))
}

/// How many deals in a row `random_game_with` deals again when no lawful discard is found.
const REDEALS: usize = 100;

/// Why `play_out` could not finish a game.
enum Failed {
    /// The taker holds no discard the requirements allow (none found by `lawful_discard`).
    NoLawfulDiscard(String),
    Other(String),
}

impl From<String> for Failed {
    fn from(e: String) -> Self {
        Failed::Other(e)
    }
}

impl From<&str> for Failed {
    fn from(e: &str) -> Self {
        Failed::Other(e.to_string())
    }
}

impl From<Failed> for String {
    fn from(e: Failed) -> Self {
        match e {
            Failed::NoLawfulDiscard(e) | Failed::Other(e) => e,
        }
    }
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
    Ok(play_out(&setup, table, dealer, seats, deal, options, &SimOptions::default(), None, rng)?)
}

/// What a deal carries from the match (the record's `pots` and `standing`), where the ruleset keeps
/// pots or reads the standing: nothing, as a table's first deal, unless `always` or the deal's `require`
/// refuses that; then a draw of `random_carry`, drawn again (up to 200 times) until the deal is allowed.
/// Draws nothing from `rng` otherwise, so the games of a seed stay the same.
fn carry<R: Rng>(setup: &Setup, table: &[String], names: &[String], dealer: u8, deal: &Event, sim: &SimOptions, rng: &mut R) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
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
fn near_match_end<R: Rng>(setup: &Setup, table: &[String], target: i64, rng: &mut R) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let (pots, _) = random_carry(setup, table, rng);
    let n = table.len();
    let partners = setup.rules.sides == crate::ir::Sides::Partners && n.is_multiple_of(2);
    let accounts = if partners { n / 2 } else { n };
    let low = target - (target / 10).max(1);
    let totals: Vec<i64> = (0..accounts).map(|_| rng.gen_range(low..target)).collect();
    (pots, table.iter().enumerate().map(|(i, name)| (name.clone(), totals[i % accounts])).collect())
}

/// What steering has drawn for one game.
struct Plan {
    /// The contract the bidding aims at, by index, and the how-manieth bid takes it.
    target: Option<(usize, usize)>,
    hold_excuse: bool,
    /// The lowest trump is held back until its player has this many cards left.
    hold_petit: Option<usize>,
    /// The cards that may be withheld (`play { withhold }`) are held back while another card is legal.
    withhold: CardSet,
    strong: Option<u8>,
    /// The contract the winner names at his last word (`raise`), the auction being steered to the
    /// contract raised from.
    raise_to: Option<usize>,
}

/// Plays out `deal` at `table`, seated as `seats` says (`dealer_at_table` dealing).
#[allow(clippy::too_many_arguments)]
fn play_out<R: Rng>(
    setup: &Setup,
    table: &[String],
    dealer_at_table: usize,
    seats: Seating,
    deal: Event,
    options: &BTreeMap<String, serde_json::Value>,
    sim: &SimOptions,
    strong: Option<u8>,
    rng: &mut R,
) -> Result<GameRecord, Failed> {
    let rules = setup.rules;
    let (names, dealer) = (seats.playing, seats.dealer);
    let mut plan = plan(setup, sim, strong, rng);
    let mut game = Game::new(setup, &names, dealer);
    // Half the time the strong hand is the one that takes (it speaks in turn from first hand).
    if let (Some(p), Some((_, turn))) = (plan.strong, plan.target.as_mut()) {
        if rng.gen_bool(0.5) {
            *turn = (p as usize + setup.n - game.first_hand() as usize) % setup.n;
        }
    }
    let (pots, standing) = carry(setup, table, &names, dealer, &deal, sim, rng);
    game.carry(&rules.pots.iter().map(|pot| crate::num::Q::int(pots.get(&*pot.name).copied().unwrap_or(0))).collect::<Vec<_>>());
    for (i, name) in names.iter().enumerate() {
        game.standing[i] = crate::num::Q::int(standing.get(name).copied().unwrap_or(0));
    }
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
            Err(crate::replay::Stop::Ruleset(e)) => Err(e.to_string()),
        }
    };
    // The game as recorded so far, at its end or where it stopped.
    let finished = |events| GameRecord {
        ruleset: rules.id.clone(),
        options: options.clone(),
        players: table.to_vec(),
        dealer: table[dealer_at_table].clone(),
        pots: pots.clone(),
        standing: standing.clone(),
        description: None,
        events,
    };
    let deal = events.pop().expect("the deal");
    if !record(&mut game, &mut events, deal)? {
        return Ok(finished(events));
    }
    // Declarations made right after the deal (`when after-deal`), where one is lawful.
    for e in after_deal_declarations(rules, &game, sim, plan.strong, rng) {
        if !record(&mut game, &mut events, e)? {
            return Ok(finished(events));
        }
    }
    let mut declared_before_play = false;
    let mut first_card_declarations: Vec<(usize, u8)> = vec![];
    while let Some(next) = game.next() {
        let p = names.iter().position(|n| **n == *next.player).expect("a player") as u8;
        let event = match game.phase {
            Phase::Bidding => {
                let bid = match plan.target {
                    Some(target) => steered_bid(rules, &game, &next.legal, target, plan.raise_to, rng),
                    None => next.legal.choose(rng).ok_or("no legal bid")?.clone(),
                };
                Event::Bid { player: next.player.as_ref().into(), bid: bid.as_str().into() }
            }
            Phase::Call => {
                let in_dog: Vec<&String> = next.legal.iter().filter(|c| Card::parse(c).is_some_and(|c| game.dog.contains(c))).collect();
                let card = match in_dog.is_empty() || !(sim.call_dog > 0.0 && rng.gen_bool(sim.call_dog)) {
                    true => next.legal.choose(rng).ok_or("no card to call")?,
                    false => in_dog.choose(rng).copied().ok_or("no card to call")?,
                };
                Event::Call { player: next.player.as_ref().into(), card: card.as_str().into() }
            }
            Phase::Discard if &*next.phase == "take" => match before_take_declaration(&game, sim, rng) {
                // A declaration made once the talon is shown, before the packet is taken.
                Some(e) => e,
                None => {
                    let packet = next.legal.choose(rng).ok_or("no packet of the talon to take")?;
                    Event::Take { player: next.player.as_ref().into(), cards: packet.split(' ').map(Into::into).collect() }
                }
            },
            Phase::Play if &*next.phase == "buy" => {
                // Half the time the taker buys nothing; else a card of another hand, for any of his.
                let call = next.legal.iter().filter(|c| *c != "pass").collect::<Vec<_>>();
                let gives = game.hands[p as usize].iter().collect::<Vec<Card>>();
                match (call.choose(rng), gives.choose(rng), rng.gen_bool(0.5)) {
                    (Some(c), Some(g), true) => Event::Buy { player: next.player.as_ref().into(), card: Some(c.as_str().into()), gives: Some(g.to_string().into()) },
                    _ => Event::Buy { player: next.player.as_ref().into(), card: None, gives: None },
                }
            }
            Phase::Discard => {
                let k = next.count.unwrap_or(0);
                let mut searched: Option<Vec<Card>> = None;
                let mut pool: Vec<Card> = game.discardable(p).iter().collect();
                if pool.len() < k {
                    // Unavoidable: complete from cards that are not forbidden outright.
                    pool = game.hands[p as usize].minus(game.forbidden()).iter().collect();
                }
                // The cards laid away only when unavoidable (`unless-unavoidable`) go last, so that
                // no more of them go than must. Sorted after the shuffle, which draws as it always
                // drew: only which of those cards go changes.
                let restricted = rules.discard.as_ref().and_then(|d| d.unless_unavoidable.as_ref()).map_or(CardSet::EMPTY, |u| u.cards);
                let last = |pool: &mut Vec<Card>| pool.sort_by_key(|c| restricted.contains(*c));
                pool.shuffle(rng);
                last(&mut pool);
                // `require`s over the discard and the hand left are no set of cards: draw again until
                // a discard meets them, or give the last one to replay to refuse. Half the draws put
                // the trumps and the Fool last, as requirements most often spare them ("a trump only
                // if nothing else can go").
                // A taker whose contract requires an announcement keeps what he must announce (only
                // then is `reach` consulted, so other games draw as they did).
                let requires = game.taker == Some(p) && game.contract_requires_anything();
                let reach = |set: CardSet| !requires || requirements_within_reach(&game, p, set);
                if requires || rules.discard.as_ref().is_some_and(|d| !d.requires.is_empty()) {
                    // The first lawful discard says how many restricted cards a lawful one holds:
                    // a draw is lawful when it holds as many and meets the requirements (as
                    // `discard_allowed` would find, without its search). None, and the deal is
                    // dealt again.
                    let Some(first) = game.first_lawful_discard(p) else {
                        return Err(Failed::NoLawfulDiscard(format!("{} holds no discard of {k} cards the requirements allow", next.player)));
                    };
                    let fewest = first.and(restricted).len();
                    let lawful = |pool: &[Card]| {
                        let set: CardSet = pool.iter().take(k).copied().collect();
                        set.and(restricted).len() == fewest && game.discard_meets_requires(p, set) && reach(set)
                    };
                    let mut found = false;
                    for i in 0..600 {
                        if lawful(&pool) {
                            found = true;
                            break;
                        }
                        pool.shuffle(rng);
                        if i % 2 == 1 {
                            pool.sort_by_key(|c| c.is_trump() || c.is_fool());
                        }
                        last(&mut pool);
                    }
                    // A hard deal, where few discards meet the requirements: the first lawful one.
                    if !found {
                        if !reach(first) {
                            return Err(Failed::NoLawfulDiscard(format!("{} holds no discard that leaves what his contract requires within reach", next.player)));
                        }
                        searched = Some(first.iter().collect());
                    }
                }
                let cards: Vec<Card> = searched.take().unwrap_or_else(|| pool.iter().take(k).copied().collect());
                Event::Discard { player: next.player.as_ref().into(), cards: cards.iter().map(|c| c.code()).collect() }
            }
            _ => {
                if !declared_before_play {
                    declared_before_play = true;
                    // Now and then one player sits out, where the rules let him (`sit-out-by-choice`):
                    // one in turn from first hand, if the rules allow him at this table. No number is
                    // drawn where nobody may (a table of two or three at Minchiate): games there are
                    // those the simulator made before it sat anyone out.
                    if rules.sit_out_choice.is_some() && !game.may_sit_out().is_empty() && rng.gen_bool(0.25) {
                        let n = setup.n as u8;
                        let q = (game.first_hand() + rng.gen_range(0..n)) % n;
                        let e = Event::SitOut { player: names[q as usize].as_str().into() };
                        if game.clone().apply(events.len(), &e).is_ok() {
                            record(&mut game, &mut events, e)?;
                        }
                    }
                    let (made, at_first_card) = random_declarations(rules, &game, sim, plan.strong, rng);
                    first_card_declarations = at_first_card;
                    for e in made {
                        if !record(&mut game, &mut events, e)? {
                            break;
                        }
                    }
                    continue;
                }
                // The declarations drawn for `p`'s first card (`when first-play`), made at his turn.
                if first_card_declarations.iter().any(|&(_, q)| q == p) {
                    let mine: Vec<usize> = first_card_declarations.iter().filter(|&&(_, q)| q == p).map(|&(k, _)| k).collect();
                    first_card_declarations.retain(|&(_, q)| q != p);
                    for k in mine {
                        let Some(e) = declaration_event(&game, k, p) else { continue };
                        if game.clone().apply(events.len(), &e).is_ok() && !record(&mut game, &mut events, e)? {
                            return Ok(finished(events));
                        }
                    }
                    continue;
                }
                let mut legal = game.legal(p);
                if plan.hold_excuse && legal.len() > 1 {
                    legal.remove(crate::cards::FOOL);
                }
                // Held back while another card is legal (but by the strong hand, which plays to take
                // every trick): withheld where a trump is due of them alone.
                if plan.strong != Some(p) && !legal.minus(plan.withhold).is_empty() {
                    legal = legal.minus(plan.withhold);
                }
                if let Some(until) = plan.hold_petit {
                    let petit = Card::trump(1);
                    if game.hands[p as usize].len() > until && legal.len() > 1 {
                        legal.remove(petit);
                    } else if legal.contains(petit) {
                        legal = CardSet::single(petit);
                    }
                }
                let c = if sim.strong_plays_high && plan.strong == Some(p) {
                    let strength = &rules.pack.strength;
                    legal.iter().max_by_key(|c| (!c.is_fool(), c.is_trump(), strength[c.0 as usize])).ok_or("a player has no legal card")?
                } else {
                    let legal: Vec<Card> = legal.iter().collect();
                    *legal.choose(rng).ok_or("a player has no legal card")?
                };
                Event::Play { player: next.player.as_ref().into(), card: c.code() }
            }
        };
        if !record(&mut game, &mut events, event)? {
            break;
        }
    }
    Ok(finished(events))
}

/// Draws what steering decides once per game. Draws no random number for the uniform simulator.
fn plan<R: Rng>(setup: &Setup, sim: &SimOptions, strong: Option<u8>, rng: &mut R) -> Plan {
    if sim.is_uniform() {
        return Plan { target: None, hold_excuse: false, hold_petit: None, withhold: CardSet::EMPTY, strong, raise_to: None };
    }
    let contracts = setup.rules.bidding.as_ref().map(|b| b.contracts.len()).unwrap_or(0);
    let target = match &sim.contract {
        _ if contracts == 0 => None,
        ContractChoice::Uniform => None,
        ContractChoice::Even => Some(rng.gen_range(0..contracts)),
        ContractChoice::Only(name) => setup.rules.bidding.as_ref().and_then(|b| b.contracts.iter().position(|c| c.name == *name)),
    };
    let target = target.map(|t| (t, rng.gen_range(0..setup.n)));
    let hold_excuse = sim.hold_excuse > 0.0 && rng.gen_bool(sim.hold_excuse);
    let hold_petit = (sim.hold_petit > 0.0 && rng.gen_bool(sim.hold_petit)).then(|| rng.gen_range(1..=2));
    // Through the last word, some of the time: the auction aims at the contract raised from.
    let raises = setup.rules.bidding.as_ref().map_or(&[][..], |b| &b.raise[..]);
    let from = target.and_then(|(t, _)| raises.iter().find(|r| r.to.contains(&t)).map(|r| r.won));
    let (target, raise_to) = match (target, from) {
        (Some((t, turn)), Some(won)) if sim.last_word > 0.0 && rng.gen_bool(sim.last_word) => (Some((won, turn)), Some(t)),
        _ => (target, None),
    };
    // Drawn last, and only where the rules let a card be withheld: other rulesets draw as they did.
    let withholds = &setup.rules.play.withholds;
    let withhold =
        if !withholds.is_empty() && sim.withhold > 0.0 && rng.gen_bool(sim.withhold) { withholds.iter().fold(CardSet::EMPTY, |a, w| a.or(w.cards)) } else { CardSet::EMPTY };
    Plan { target, hold_excuse, hold_petit, withhold, strong, raise_to }
}

/// The bid that steers the auction to contract `target.0`, taken by the `target.1`-th bid: before it
/// a pass or, a quarter of the time, a lower contract; then the target; then passes. Falls back to
/// passing whenever the target is out of reach (an auction that goes differently), and to a uniform
/// choice if passing is not legal.
fn steered_bid<R: Rng>(rules: &Ruleset, game: &Game, legal: &[String], (target, turn): (usize, usize), raise_to: Option<usize>, rng: &mut R) -> String {
    let bidding = rules.bidding.as_ref().expect("a bidding phase has contracts");
    let contracts = &bidding.contracts;
    let name = |c: usize| contracts[c].name.clone();
    let is_legal = |b: &str| legal.iter().any(|l| l == b);
    // The auction's winner choosing what to play (`instead`): the target if it is offered, else the
    // contract he won (listed first); the contract planned to be raised to (`raise`) if it is offered.
    // A raise not planned is not made, so that games steered without it stay the same.
    if game.choosing() {
        let raised = |c: usize| bidding.raise.iter().any(|r| r.to.contains(&c) && legal[0] == name(r.won));
        let want = raise_to.unwrap_or(target);
        let offered = is_legal(&name(want)) && (raise_to.is_some() || !raised(want));
        return if offered { name(want) } else { legal[0].clone() };
    }
    // A contract chosen after the auction is steered to by winning the contract it replaces.
    let target = bidding.instead.iter().find(|i| i.chosen == target).map_or(target, |i| i.won);
    let taken = game.bids.iter().any(|(_, b)| *b == crate::replay::Bid::Contract(target));
    let spoken = game.bids.len();
    // A contract only some may bid (`by`) is bid as soon as it is offered: its bidder may not get
    // another turn (forehand's Tapper, after a pass that is final).
    let now = spoken >= turn || contracts[target].by.is_some();
    // Under `step`, a contract opens only over the one below it: bid that one first, and the target
    // once it is held.
    let step_below = bidding.step.as_ref().and_then(|(cs, _)| cs.iter().position(|&c| c == target).filter(|&i| i > 0).map(|i| cs[i - 1]));
    // The steps of a chain below the target, lowest first: climbed by whoever speaks before the
    // target is reached, so that a chain of three or more gets to its top before the players run out.
    let climb = bidding.step.as_ref().and_then(|(cs, _)| {
        let at = cs.iter().position(|&c| c == target)?;
        cs[..at].iter().copied().find(|&c| is_legal(&name(c)))
    });
    let choice = if !taken && now && is_legal(&name(target)) {
        name(target)
    } else if let Some(below) = step_below.filter(|&b| !taken && now && is_legal(&name(b))) {
        name(below)
    } else if let Some(step) = climb.filter(|_| !taken && spoken < turn) {
        name(step)
    } else if !taken && spoken < turn && rng.gen_bool(0.25) {
        let lower: Vec<String> = (0..target).map(name).filter(|b| is_legal(b)).collect();
        lower.choose(rng).cloned().unwrap_or_else(|| "pass".into())
    } else {
        "pass".into()
    };
    if is_legal(&choice) {
        choice
    } else {
        // The target out of reach for now (a bid the hand forces, a step that opens only over the
        // bid below it): the highest legal contract below it keeps it within reach of the others.
        let any = legal.choose(rng).cloned().unwrap_or(choice);
        (0..target).rev().map(name).find(|b| is_legal(b)).unwrap_or(any)
    }
}

/// Declarations a player may make before play: for each kind and player, the largest valid show
/// among the player's cards of that kind (trying the cards in order of strength), made with the
/// chance `sim` gives (half the time unsteered). Each is tried after those made before it, so a
/// declaration that answers another (a Rekontra after a Kontra) can be made, and one a side makes
/// once is made by one player of it. Those made at the declarer's first card (`when first-play`) are
/// drawn here, in the same order, and returned apart as (kind, player), to be made at his turn.
fn random_declarations<R: Rng>(rules: &Ruleset, game: &Game, sim: &SimOptions, strong: Option<u8>, rng: &mut R) -> (Vec<Event>, Vec<(usize, u8)>) {
    let mut out = vec![];
    let mut later = vec![];
    let n = game.setup.n;
    let mut game = game.clone();
    // Kind by kind, each player in seat order; where declarations are made in turn (`in-turn`),
    // player by player in turn from first hand, each making all his declarations at his turn.
    let order: Vec<(usize, u8)> = if rules.declarations.iter().any(|d| game.in_turn(d).is_some()) {
        let from_dealer = rules.declarations.iter().any(|d| game.in_turn(d).is_some_and(|(_, dealer)| dealer));
        let first = if from_dealer { game.dealer as usize } else { game.first_hand() as usize };
        (0..n).flat_map(|i| (0..rules.declarations.len()).map(move |k| (k, ((first + i) % n) as u8))).collect()
    } else {
        (0..rules.declarations.len()).flat_map(|k| (0..n as u8).map(move |p| (k, p))).collect()
    };
    // What the contract played requires of the announcements (`require` in its block): the first
    // declaration open to the taker that meets it, made first, as the declarer speaks first. No
    // random number is drawn, so games of contracts that require nothing stay the same.
    if let (Some(t), false) = (game.taker, game.contract_requirements_met()) {
        if let Some((e, tried)) = meeting_requirements(&game, t) {
            game = tried;
            out.push(e);
        }
    }
    for (k, p) in order {
        let d = &rules.declarations[k];
        // Who may make it (`by`) and not twice: no draw for a player who may not. One made before the
        // talon is taken was drawn then (`before_take_declaration`).
        if game.not_his_to_declare(p, k, d).is_some() || d.when == When::BeforeTake {
            continue;
        }
        // Declaring or not are the two legal choices; unsteered, each is as likely.
        let chance = match (d.shows.is_empty(), strong == Some(p)) {
            (false, _) => sim.declare,
            (true, true) => sim.announce_strong,
            (true, false) => sim.announce,
        };
        // A compulsory declaration is made whenever the hand holds one: not making it is illegal.
        if !game.is_compulsory(d) && !rng.gen_bool(chance) {
            continue;
        }
        if d.when == When::FirstPlay {
            later.push((k, p));
            continue;
        }
        if let Some(e) = declaration_event(&game, k, p) {
            let mut tried = game.clone();
            if tried.apply(0, &e).is_ok() {
                game = tried;
                out.push(e);
            }
        }
    }
    (out, later)
}

/// A declaration made once the talon is shown, before the taker takes his packet (`when
/// before-take`): for each kind and each player in seat order, one that the game accepts now, made
/// with the chance `sim` gives (`end_deal` for one that ends the deal unplayed). No random number is
/// drawn where none is lawful or its chance is 0, so games without one draw what they always drew.
fn before_take_declaration<R: Rng>(game: &Game, sim: &SimOptions, rng: &mut R) -> Option<Event> {
    let rules = game.setup.rules;
    for (k, d) in rules.declarations.iter().enumerate().filter(|(_, d)| d.when == When::BeforeTake) {
        for p in 0..game.setup.n as u8 {
            if game.not_his_to_declare(p, k, d).is_some() {
                continue;
            }
            let Some(e) = declaration_event(game, k, p) else { continue };
            let chance = match (d.ends_deal.is_some(), d.shows.is_empty()) {
                (true, _) => sim.end_deal,
                (false, false) => sim.declare,
                (false, true) => sim.announce,
            };
            if chance <= 0.0 || game.clone().apply(0, &e).is_err() {
                continue;
            }
            if rng.gen_bool(chance) {
                return Some(e);
            }
        }
    }
    None
}

/// The first declaration (in the order written) open to the taker `t` before play that, made, meets
/// what the contract played requires (`require` in its block), with the game after it.
fn meeting_requirements<'s, 'r>(game: &Game<'s, 'r>, t: u8) -> Option<(Event, Game<'s, 'r>)> {
    let rules = game.setup.rules;
    (0..rules.declarations.len()).find_map(|k| {
        let d = &rules.declarations[k];
        if game.not_his_to_declare(t, k, d).is_some() || d.when == When::FirstPlay {
            return None;
        }
        let e = declaration_event(game, k, t)?;
        let mut tried = game.clone();
        (tried.apply(0, &e).is_ok() && tried.contract_requirements_met()).then_some((e, tried))
    })
}

/// Whether the taker `t`, laying `cards` away, can still meet what the contract played requires
/// (`require` in its block) with one declaration: a discard that lays away the card he must announce
/// (the Besserrufer's bird) is drawn again.
fn requirements_within_reach(game: &Game, t: u8, cards: CardSet) -> bool {
    let mut after = game.clone();
    let e = Event::Discard { player: game.names[t as usize].as_ref().into(), cards: cards.iter().map(|c| c.code()).collect() };
    after.apply(0, &e).is_ok() && (after.contract_requirements_met() || meeting_requirements(&after, t).is_some())
}

/// Declaration `k` by `p` with the largest show the rules accept (none for an announcement such as a
/// chelem); `None` when his hand has none.
fn declaration_event(game: &Game, k: usize, p: u8) -> Option<Event> {
    let d = &game.setup.rules.declarations[k];
    let shown = if d.shows.is_empty() { CardSet::EMPTY } else { game.best_show(p, game.declaring_hand(p, d), d)? };
    Some(Event::Declare { player: game.names[p as usize].as_ref().into(), declaration: d.name.as_str().into(), cards: shown.iter().map(|c| c.code()).collect() })
}

/// Declarations made right after the deal (`when after-deal`: Tarocchini's dealer calling himself out
/// on his first 15 cards): for each such kind and each player in seat order, the largest show the rules
/// accept, made with the chance `sim` gives. A random number is drawn only for a declaration the player
/// may lawfully make, so games where none is lawful (nearly all, for a call-out to a match's end)
/// draw what they always drew.
fn after_deal_declarations<R: Rng>(rules: &Ruleset, game: &Game, sim: &SimOptions, strong: Option<u8>, rng: &mut R) -> Vec<Event> {
    let mut out = vec![];
    let mut game = game.clone();
    for (k, d) in rules.declarations.iter().enumerate().filter(|(_, d)| d.when == When::AfterDeal) {
        for p in 0..game.setup.n as u8 {
            if game.not_his_to_declare(p, k, d).is_some() {
                continue;
            }
            let shown = if d.shows.is_empty() { Some(CardSet::EMPTY) } else { game.best_show(p, game.declaring_hand(p, d), d) };
            let Some(shown) = shown else { continue };
            let e = Event::Declare { player: game.names[p as usize].as_ref().into(), declaration: d.name.as_str().into(), cards: shown.iter().map(|c| c.code()).collect() };
            let mut tried = game.clone();
            if tried.apply(0, &e).is_err() {
                continue;
            }
            let chance = match (d.shows.is_empty(), strong == Some(p)) {
                (false, _) => sim.declare,
                (true, true) => sim.announce_strong,
                (true, false) => sim.announce,
            };
            if rng.gen_bool(chance) {
                game = tried;
                out.push(e);
            }
        }
    }
    out
}

/// Replaces one card play of a recorded game by a card its player holds but may not play there, chosen
/// at random among all such plays (a card whose play the rules make a fault paid is not one: the
/// game would go on, and break a later rule, if any). Returns the new record and the index of the replaced event; `None`
/// when no play of the game could have been illegal (every hand always had only legal cards).
pub fn illegal_variant<R: Rng>(rules: &Ruleset, rec: &GameRecord, rng: &mut R) -> Option<(GameRecord, usize)> {
    let setup = Setup::new(rules, rec.players.len(), &rec.options).ok()?;
    let dealer = rec.players.iter().position(|p| *p == rec.dealer)? as u8;
    let mut game = Game::new(&setup, &rec.players, dealer);
    // Each play with a card its player may not play, and those of them the rules make a fault paid
    // (`play { fault ... }`): not refused, so not a bad card.
    let mut candidates = vec![];
    for (i, e) in rec.events.iter().enumerate() {
        if let Event::Play { player, .. } = e {
            let p = rec.players.iter().position(|n| n == player)? as u8;
            let illegal: CardSet = game.hands[p as usize].minus(game.legal(p));
            if !illegal.is_empty() {
                let paid: CardSet = illegal.iter().filter(|&c| game.is_paid_fault(p, c)).collect();
                candidates.push((i, player.clone(), illegal, paid));
            }
        }
        if game.apply(i, e).is_err() {
            break;
        }
    }
    // The draws are those made before paid faults were skipped (a play, then a card of it), so the
    // games drawn after it stay the same; a paid fault drawn gives way to the next card of that play
    // that is not one, else to the first such card of the plays after it (round to the first).
    let (k, (_, _, illegal, _)) = candidates.iter().enumerate().collect::<Vec<_>>().choose(rng).copied()?;
    let drawn = illegal.nth(rng.gen_range(0..illegal.len()))?;
    let (i, player, card) = (0..candidates.len()).map(|j| &candidates[(k + j) % candidates.len()]).find_map(|(i, player, illegal, paid)| {
        let open: Vec<Card> = illegal.minus(*paid).iter().collect();
        let card = if *i == candidates[k].0 { open.iter().find(|c| c.0 >= drawn.0).or(open.first()) } else { open.first() };
        card.map(|c| (*i, player.clone(), *c))
    })?;
    let mut out = rec.clone();
    out.events[i] = Event::Play { player, card: card.code() };
    Some((out, i))
}

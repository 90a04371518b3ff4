//! The engine's Marolles payments (`marolles-1637`, `marolles-78`) against a second reckoning written by
//! hand from seed 001 (pagat.com's *Early 17th Century French Tarot*), with no rule file:
//! the cut card, discards, declarations, Tarots saved and captured, la Belle, the Fool, the Ultimo, card
//! points counted in packets of three and the settlement, over simulated games, unsteered and steered
//! (strong hands, the Fool held to the last trick). Each game is simulated from its own seed, so a
//! difference names the seed that reproduces it (`tarot-archive simulate --ruleset ID --games 1 --seed
//! S [--steer]`).
//!
//! `MAROLLES_GAMES` sets the number of steered games per ruleset (default 2,000; a quarter as many
//! unsteered, and a quarter as many steered with the editor's alternatives: Ultimo failure 1M, the
//! discard penalty once, the loser paying only the higher winner) and `MAROLLES_REPORT=1` prints how often each payment occurred.
//!
//! The readings it makes where the seed is short (the editor's defaults, each an option in the ruleset):
//! - A Tarot played to a trick is paid 1M by each opponent when its player takes the trick, and costs
//!   its player 1M to each opponent when another takes it; in the last trick a King or the Pagat is paid
//!   by the Ultimo instead (6M either way). The Fool, which never takes a trick, is paid 1M by each
//!   opponent when excused, and costs 2M to each when played to the last trick, where it goes to the
//!   trick's winner, and nothing more.
//! - The discard penalty is 2M per trump or Tarot discarded, to each opponent.
//! - "Qui a le sien?" is paid by the player who was dealt none of the XXI, the I and the Fool: one who
//!   has discarded his (and paid the discard penalty) still has it among his cards, so that one player
//!   pays, as the seed's singular says.
//! - Two winners: each collects from the loser 1M per full 5 points over 25; one winner: each loser
//!   pays him 1M per full 5 points under 25.

use std::collections::BTreeMap;
use tarot_testkit::registry;

use crate::common::count;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Status};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Card {
    Trump(u8),
    Fool,
    /// Suit letter and rank (K 14, Q 13, C 12, J 11, numerals as printed).
    Suited(char, u8),
}

impl Card {
    fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Fool;
        }
        if let Some(n) = code.strip_prefix('T') {
            return Card::Trump(n.parse().unwrap());
        }
        let (rank, suit) = code.split_at(code.len() - 1);
        let rank = match rank {
            "K" => 14,
            "Q" => 13,
            "C" => 12,
            "J" => 11,
            n => n.parse().unwrap(),
        };
        Card::Suited(suit.chars().next().unwrap(), rank)
    }

    fn is_king(self) -> bool {
        matches!(self, Card::Suited(_, 14))
    }

    /// "The Kings, the Fool (Math), the Trump I (Pagat) and the Trump XXI (Monde) are called Tarots."
    fn is_tarot(self) -> bool {
        self.is_king() || matches!(self, Card::Fool | Card::Trump(1) | Card::Trump(21))
    }

    fn is_trump(self) -> bool {
        matches!(self, Card::Trump(_))
    }

    /// The counting value: Tarots 5, Queens 4, Cavaliers 3, Jacks 2, empty cards 0.
    fn value(self) -> i64 {
        match self {
            c if c.is_tarot() => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 0,
        }
    }

    /// Strength within a suit: courts above numerals; the round suits (cups H, coins D) rank their
    /// numerals inversely, 1 highest.
    fn strength(self) -> i32 {
        match self {
            Card::Suited(_, r) if r >= 11 => 100 + r as i32,
            Card::Suited('H' | 'D', r) => 50 - r as i32,
            Card::Suited(_, r) => r as i32,
            Card::Trump(n) => n as i32,
            Card::Fool => -1,
        }
    }
}

/// Card points of a pile counted in packets of three, as the seed describes it: each counting card
/// with two empty cards is worth its value; three empty cards 1; for want of empty cards, two counting
/// cards and an empty one their sum less 1, three counting cards their sum less 2; two cards left over
/// count as if a third empty one were there, one counting card left over its value less 1, one empty
/// card nothing.
fn count_pile(pile: &[Card]) -> i64 {
    let mut counters: Vec<i64> = pile.iter().map(|c| c.value()).filter(|&v| v > 0).collect();
    let mut empties = pile.len() as i64 - counters.len() as i64;
    let mut total = 0;
    // Each counting card with two empty cards while there are enough.
    while !counters.is_empty() && empties >= 2 {
        total += counters.pop().unwrap();
        empties -= 2;
    }
    if counters.is_empty() {
        total += empties / 3 + if empties % 3 == 2 { 1 } else { 0 };
        return total;
    }
    // Too few empty cards: the counting cards left (and at most one empty card) in packets of three.
    let mut rest: Vec<i64> = counters;
    rest.extend(std::iter::repeat_n(0, empties as usize));
    for packet in rest.chunks(3) {
        let counting = packet.iter().filter(|&&v| v > 0).count() as i64;
        let sum: i64 = packet.iter().sum();
        total += match packet.len() {
            3 => sum - (counting - 1).max(0) + if counting == 0 { 1 } else { 0 },
            // As if a third, empty card were there.
            2 => sum - (counting - 1).max(0) + if counting == 0 { 1 } else { 0 },
            _ => (sum - 1).max(0),
        };
    }
    total
}

/// What a game comes to: each player's marques (in halves), and the kinds of payment made, for the report.
struct Reckoning {
    scores: BTreeMap<String, i64>,
    cases: Vec<String>,
}

/// The ruleset's options, as the editor lists his alternatives.
#[derive(Clone, Copy)]
struct Readings {
    /// Marques paid to each opponent for a King or the Pagat lost in the last trick: 6, or 1 literally.
    ultimo_failure: i64,
    /// The discard penalty once per discard instead of per card.
    discard_once: bool,
    /// Two winners: the loser pays only the one with more points (Dummett/McLeod), shared on a tie.
    higher_only: bool,
}

const EDITOR: Readings = Readings { ultimo_failure: 6, discard_once: false, higher_only: false };
const LITERAL: Readings = Readings { ultimo_failure: 1, discard_once: true, higher_only: true };

fn reckon(rec: &GameRecord, r: Readings) -> Reckoning {
    let names = &rec.players;
    let n = names.len();
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap();
    let dealer = seat(&rec.dealer);
    // In half marques: with the literal reading, two winners tied at the top share the loser's payment.
    let mut marques = vec![0i64; n];
    let mut cases = vec![];
    // `p` is paid `m` by each opponent (a negative `m`: `p` pays each opponent).
    let paid_by_each = |marques: &mut Vec<i64>, p: usize, m: i64| {
        for (q, mq) in marques.iter_mut().enumerate() {
            *mq += 2 * if q == p { m * (n as i64 - 1) } else { -m };
        }
    };
    let mut hands: Vec<Vec<Card>> = vec![vec![]; n];
    let mut dealt: Vec<Vec<Card>> = vec![];
    let mut piles: Vec<Vec<Card>> = vec![vec![]; n];
    let mut plays: Vec<(usize, Card)> = vec![];
    let mut belle_declared = vec![false; n];
    for e in &rec.events {
        match e {
            Event::Deal { hands: h, cut, .. } => {
                for (p, cs) in h {
                    hands[seat(p)] = cs.iter().map(|c| Card::parse(c)).collect();
                }
                dealt = hands.clone();
                if let Some(c) = cut {
                    if Card::parse(c).is_tarot() {
                        paid_by_each(&mut marques, dealer, 1);
                        cases.push("cut card a Tarot".into());
                    }
                }
            }
            Event::Discard { player, cards } => {
                let p = seat(player);
                let cards: Vec<Card> = cards.iter().map(|c| Card::parse(c)).collect();
                hands[p].retain(|c| !cards.contains(c));
                let illegal = cards.iter().filter(|c| c.is_trump() || c.is_tarot()).count() as i64;
                if illegal > 0 {
                    paid_by_each(&mut marques, p, -2 * if r.discard_once { 1 } else { illegal });
                    cases.push("trump or Tarot discarded".into());
                }
                piles[p].extend(cards);
            }
            Event::Declare { player, declaration, cards } => {
                let p = seat(player);
                let shown: Vec<Card> = cards.iter().map(|c| Card::parse(c)).collect();
                let value = declaration_value(declaration, &shown);
                if declaration == "qui_a_le_sien" {
                    // Paid by the player who was dealt none of the XXI, the I and the Fool.
                    let trull = |c: &Card| matches!(c, Card::Fool | Card::Trump(1) | Card::Trump(21));
                    for q in (0..n).filter(|&q| q != p && !dealt[q].iter().any(trull)) {
                        marques[q] -= 2 * value;
                        marques[p] += 2 * value;
                    }
                } else {
                    paid_by_each(&mut marques, p, value);
                }
                if declaration == "belle" {
                    belle_declared[p] = true;
                }
                cases.push(format!("declared {declaration}"));
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            Event::Bid { .. } | Event::Call { .. } | Event::Take { .. } | Event::Buy { .. } | Event::SitOut { .. } => panic!("no bidding at Marolles"),
        }
    }
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(n).collect();
    let last = tricks.len() - 1;
    for (i, t) in tricks.iter().enumerate() {
        // The highest trump, else the highest card of the suit led (the Fool led: the next card's suit).
        let led = t.iter().map(|&(_, c)| c).find(|&c| c != Card::Fool).unwrap();
        let led_suit = match led {
            Card::Suited(s, _) => Some(s),
            _ => None,
        };
        let winner = t
            .iter()
            .filter(|&&(_, c)| c != Card::Fool)
            .max_by_key(|&&(_, c)| match c {
                Card::Trump(k) => 1000 + k as i32,
                Card::Suited(s, _) if Some(s) == led_suit => c.strength(),
                _ => -100,
            })
            .unwrap()
            .0;
        for &(p, c) in t.iter() {
            let ultimo = i == last && (c.is_king() || c == Card::Trump(1));
            if c == Card::Fool {
                if i == last {
                    paid_by_each(&mut marques, p, -2);
                    cases.push("Fool kept to the last trick".into());
                    piles[winner].push(c);
                } else {
                    paid_by_each(&mut marques, p, 1);
                    cases.push("Fool excused".into());
                    piles[p].push(c);
                }
                continue;
            }
            piles[winner].push(c);
            if ultimo {
                paid_by_each(&mut marques, p, if winner == p { 6 } else { -r.ultimo_failure });
                cases.push(format!("Ultimo {}", if winner == p { "won" } else { "lost" }));
            } else if c.is_tarot() {
                paid_by_each(&mut marques, p, if winner == p { 1 } else { -1 });
                cases.push(format!("Tarot {}", if winner == p { "saved" } else { "captured" }));
            }
            if c == Card::Suited('D', 1) && !belle_declared[p] {
                paid_by_each(&mut marques, p, 1);
                cases.push("la Belle played".into());
            }
        }
    }
    let points: Vec<i64> = piles.iter().map(|p| count_pile(p)).collect();
    let winners: Vec<usize> = (0..n).filter(|&p| points[p] >= 25).collect();
    match winners.len() {
        1 => {
            for q in (0..n).filter(|&q| q != winners[0]) {
                let m = 2 * ((25 - points[q]) / 5);
                marques[q] -= m;
                marques[winners[0]] += m;
            }
            cases.push("one winner".into());
        }
        2 => {
            let loser = (0..n).find(|p| !winners.contains(p)).unwrap();
            let top = winners.iter().map(|&w| points[w]).max().unwrap();
            let at_top = winners.iter().filter(|&&w| points[w] == top).count() as i64;
            for &w in &winners {
                let m = match r.higher_only {
                    false => 2 * ((points[w] - 25) / 5),
                    true if points[w] < top => 0,
                    true => 2 * ((points[w] - 25) / 5) / at_top,
                };
                marques[loser] -= m;
                marques[w] += m;
            }
            cases.push("two winners".into());
        }
        // Only on 78 cards (worth 78: 26 a player on average), where the seed gives no settlement of
        // its own: with the 66-card game's threshold of 25 and no loser, nobody pays.
        3 => cases.push("three winners".into()),
        k => panic!("{k} winners: {points:?}"),
    }
    Reckoning { scores: names.iter().cloned().zip(marques).collect(), cases }
}

/// What a declaration is worth, from the cards shown.
fn declaration_value(kind: &str, shown: &[Card]) -> i64 {
    let count = |f: &dyn Fn(&Card) -> bool| shown.iter().filter(|c| f(c)).count() as i64;
    match kind {
        // "First four tarots are worth 1M, each additional tarot is worth 1M."
        "tarots" => count(&|c| c.is_tarot()) - 3,
        // 2 Kings + Fool 1, 3 Kings 1, 3 Kings + Fool 2, 4 Kings 3, 4 Kings + Fool 4.
        "kings_fool" => [0, 0, 0, 1, 3][count(&|c| c.is_king()) as usize] + count(&|c| *c == Card::Fool),
        // Ten triomphes 1, fifteen 2, twenty 3 (the Fool counting as one).
        "triomphes" => match shown.len() {
            20.. => 3,
            15.. => 2,
            _ => 1,
        },
        // Each complete set: the four courts of a suit, four Queens, four Cavaliers, four Jacks.
        "imperials" => {
            let suits = ['S', 'H', 'D', 'C'].iter().filter(|&&s| (11..=14).all(|r| shown.contains(&Card::Suited(s, r)))).count();
            let ranks = (11..=13).filter(|&r| ['S', 'H', 'D', 'C'].iter().all(|&s| shown.contains(&Card::Suited(s, r)))).count();
            (suits + ranks) as i64
        }
        // The four, five or six highest or lowest trumps in sequence: 1, 2, 3.
        "brizigole" => {
            let run = |from: &mut dyn Iterator<Item = u8>| from.take_while(|&k| shown.contains(&Card::Trump(k))).take(6).count() as i64;
            (run(&mut (1..=21).rev()) - 3).max(0) + (run(&mut (1..=21)) - 3).max(0)
        }
        "tous_les_trois" => 3,
        "qui_a_le_sien" => 1,
        "belle" => 1,
        k => panic!("declaration {k}"),
    }
}

#[test]
fn the_engine_pays_marolles_games_as_seed_001_does() {
    let steered_games = count("MAROLLES_GAMES", 2000);
    let mut differences = vec![];
    let mut report = String::new();
    let literal: BTreeMap<String, serde_json::Value> =
        [("ultimo_failure", serde_json::json!(1)), ("illegal_discard", serde_json::json!("once")), ("two_winners", serde_json::json!("higher-only"))]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
    for id in ["marolles-1637", "marolles-78"] {
        let rules = registry().get(id).unwrap();
        let mut tallies = vec![];
        let runs = [
            (SimOptions::default(), 0..steered_games / 4, BTreeMap::new(), EDITOR),
            (SimOptions::steered(), 1_000_000_000..1_000_000_000 + steered_games, BTreeMap::new(), EDITOR),
            (SimOptions::steered(), 2_000_000_000..2_000_000_000 + steered_games / 4, literal.clone(), LITERAL),
        ];
        for (sim, seeds, options, readings) in runs {
            let mut tally: BTreeMap<String, u64> = BTreeMap::new();
            let mut games = 0;
            for seed in seeds {
                let rec = random_game_with(rules, 3, &options, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
                let v = replay(rules, &rec).unwrap();
                assert_eq!(v.status, Status::Valid, "{id} seed {seed}: {}", v.to_text());
                games += 1;
                let mine = reckon(&rec, readings);
                let seen: std::collections::BTreeSet<&String> = mine.cases.iter().collect();
                for c in seen {
                    *tally.entry(c.clone()).or_default() += 1;
                }
                let engine: BTreeMap<String, Q> = v.outcome.as_ref().unwrap().players.iter().map(|p| (p.player.to_string(), p.score)).collect();
                let expected: BTreeMap<String, Q> = mine.scores.iter().map(|(k, &s)| (k.clone(), Q::new(s, 2))).collect();
                if engine != expected {
                    differences.push(format!(
                        "{id} seed {seed}{}{}: engine {:?}, seed 001 {:?}",
                        if sim.hold_excuse > 0.0 { " (steered)" } else { "" },
                        if options.is_empty() { "" } else { " (literal options)" },
                        engine.values().map(|q| q.to_string()).collect::<Vec<_>>(),
                        expected.values().map(|q| q.to_string()).collect::<Vec<_>>()
                    ));
                }
            }
            tallies.push((games, tally));
        }
        report += &format!(
            "\n{id}: {} games unsteered, {} steered, {} steered with the literal options\n| games with | unsteered, per 1,000 | steered, per 1,000 |\n|---|---:|---:|\n",
            tallies[0].0, tallies[1].0, tallies[2].0
        );
        let keys: std::collections::BTreeSet<&String> = tallies.iter().flat_map(|(_, t)| t.keys()).collect();
        for k in keys {
            let per = |(g, t): &(u64, BTreeMap<String, u64>)| t.get(k).copied().unwrap_or(0) as f64 * 1000.0 / (*g).max(1) as f64;
            report += &format!("| {k} | {:.1} | {:.1} |\n", per(&tallies[0]), per(&tallies[1]));
        }
    }
    if std::env::var("MAROLLES_REPORT").is_ok() {
        println!("{report}");
    }
    assert!(differences.is_empty(), "{} games paid differently:\n{}", differences.len(), differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
}

/// The packets of three against the seed's own figures: the whole pack is worth 74, and the worked
/// cases of its list.
#[test]
fn packets_of_three_count_as_the_seed_says() {
    let k = Card::Suited('S', 14);
    let q = Card::Suited('S', 13);
    let e = Card::Suited('S', 5);
    for (pile, points) in
        [(vec![k, e, e], 5), (vec![e, e, e], 1), (vec![k, q, e], 8), (vec![k, q, k], 12), (vec![k, e], 5), (vec![e, e], 1), (vec![k], 4), (vec![e], 0), (vec![k, q, e, e, e, e], 9)]
    {
        assert_eq!(count_pile(&pile), points, "{pile:?}");
    }
}

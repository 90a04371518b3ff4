//! Builds the recorded games that reproduce the worked scoring examples of the sources and writes them
//! to `fixtures/worked/<name>.json`, where `engine/tests/it/worked_examples.rs` replays them.
//!
//! Each game is found by a seeded random search over legal games. For every seed the deal is shuffled
//! and then shaped (the cards the example needs are moved into the right hands), the bidding is
//! scripted (the example's taker bids its contract, everybody else passes), the example's
//! declarations are made before the first card (a poignée at its declarer's turn in the first trick), and the play is random within the legal moves, with
//! a few habits that make the example likely: a player sometimes plays the card that wins the trick,
//! the Excuse is never kept for the last trick, and for some examples the holder of the Petit keeps it
//! until it is his only legal card. The first seed whose replayed game shows the facts the source
//! states (points, bouts, who took the Petit in the last trick...) is written out. The scores are not
//! searched for: they are what the test checks.
//!
//! Run with `cargo run -p tarot-engine --release --example generators -- worked_examples [NAME...]`.

use crate::common;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::When;
use tarot_engine::testing::{Game, Stage, Stop};
use tarot_engine::Setup;
use tarot_engine::Text;
use tarot_engine::{replay, Event, GameRecord, Registry, Status, Verdict};
use tarot_engine::{Card, CardSet, Kind, FOOL};

/// The most seeds tried for one example before giving up.
const MAX_SEEDS: u64 = 3_000_000;

/// How the cards are placed before the game.
enum Shape {
    /// These cards are in this hand (the dog is the slot after the last player).
    Give(usize, &'static [&'static str]),
    /// None of these cards is in this hand.
    Without(usize, &'static [&'static str]),
    /// This hand holds at least so many trumps.
    Trumps(usize, usize),
}

/// How a game is dealt and played while searching.
struct Plan {
    ruleset: &'static str,
    /// In order of play.
    players: &'static [&'static str],
    dealer: usize,
    /// The taker and the contract he bids; everybody else passes.
    taker: Option<(usize, &'static str)>,
    shape: Vec<Shape>,
    /// Declarations made just before the first card: who, which, and the cards shown (`None`: the
    /// declarer's ten highest trumps, a single poignée).
    declare: Vec<(usize, &'static str, Option<&'static [&'static str]>)>,
    /// Whoever holds the Petit keeps it until it is the only card he may play.
    keep_petit: bool,
    /// How often the taker plays the card that wins the trick; `None`: drawn for each seed.
    taker_skill: Option<f64>,
}

struct Example {
    name: &'static str,
    /// Which example of which source the game reproduces.
    description: &'static str,
    plan: Plan,
    /// Whether a replayed game shows the facts the source states.
    wanted: fn(&GameRecord, &Verdict) -> bool,
}

const SEED_000: [&str; 4] = ["A", "B", "C", "D"];
/// The FFT score sheet's players in order of play (anticlockwise): Nord, Ouest, Sud, Est. The deal
/// passes to the right, so the five deals are dealt by Nord, Ouest, Sud, Est and Nord again.
const FFT_SHEET: [&str; 4] = ["DURAND", "DESPRES", "DUPONT", "DUBOIS"];
const NORD: usize = 0;
const OUEST: usize = 1;
const SUD: usize = 2;
const EST: usize = 3;
/// The dog's slot in a four-player deal.
const DOG: usize = 4;
const THREE: [&str; 3] = ["Ann", "Bob", "Cid"];
const SIX: [&str; 6] = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"];

fn examples() -> Vec<Example> {
    use Shape::*;
    let fft = |players: &'static [&'static str], dealer: usize, taker: usize, contract: &'static str| Plan {
        ruleset: "fft-4p",
        players,
        dealer,
        taker: Some((taker, contract)),
        shape: vec![],
        declare: vec![],
        keep_petit: false,
        taker_skill: None,
    };
    vec![
        Example {
            name: "seed000-hand1",
            description: "Seed 000 (Playing the Tarot Game), Examples of scoring, Hand #1: A bids garde and has 56 card points \
                          with 2 bouts. Each other player gives (25 + 15) * 2 = 80 points to A.",
            plan: Plan { shape: vec![Trumps(0, 10)], ..fft(&SEED_000, 3, 0, "garde") },
            wanted: |r, v| points(v) == 56.0 && bouts(v) == 2 && petit_in_last_trick(r, v).is_none(),
        },
        Example {
            name: "seed000-hand2",
            description: "Seed 000 (Playing the Tarot Game), Examples of scoring, Hand #2: B bids garde, has 49 card points \
                          with 3 bouts and takes the last trick with the 1 of trump. Each other player gives \
                          (25 + 13 + 10) * 2 = 96 points to B.",
            plan: Plan { shape: vec![Give(1, &["T1", "T21", "EX"]), Trumps(1, 10)], keep_petit: true, ..fft(&SEED_000, 0, 1, "garde") },
            wanted: |r, v| points(v) == 49.0 && bouts(v) == 3 && petit_in_last_trick(r, v) == Some(("B", "B", true)),
        },
        Example {
            name: "seed000-hand3",
            description: "Seed 000 (Playing the Tarot Game), Examples of scoring, Hand #3: C bids garde, has 40 card points \
                          with 2 bouts and the other team takes the last trick with the 1 of trump. C gives \
                          (25 + 1 + 10) * 2 = 72 points to each other player.",
            plan: Plan { shape: vec![Give(2, &["T21", "EX"]), Give(3, &["T1"])], keep_petit: true, ..fft(&SEED_000, 1, 2, "garde") },
            wanted: |r, v| points(v) == 40.0 && bouts(v) == 2 && matches!(petit_in_last_trick(r, v), Some((by, won, true)) if by != "C" && won == by),
        },
        Example {
            name: "seed000-hand4",
            description: "Seed 000 (Playing the Tarot Game), Examples of scoring, Hand #4: C bids garde with 3 bouts, and takes \
                          41 card points, but the other team captures his 1 of trumps in the last trick. C now only has \
                          two bouts in tricks so his target score becomes 41. Each other player gives (25 + 0 - 10) * 2 = 30 \
                          points to C.",
            plan: Plan { shape: vec![Give(2, &["T1", "T21", "EX"])], keep_petit: true, ..fft(&SEED_000, 1, 2, "garde") },
            wanted: |r, v| points(v) == 41.0 && bouts(v) == 2 && matches!(petit_in_last_trick(r, v), Some(("C", won, _)) if won != "C"),
        },
        Example {
            name: "seed000-hand5",
            description: "Seed 000 (Playing the Tarot Game), Examples of scoring, Hand #5: D bids garde, has 40 card points \
                          with 3 bouts and the other team declared a poignée of 10 trumps. Each other player gives \
                          (25 + 4) * 2 + 20 = 78 points to D.",
            plan: Plan { shape: vec![Give(3, &["T1", "T21", "EX"]), Trumps(0, 10)], declare: vec![(0, "poignee", None)], ..fft(&SEED_000, 2, 3, "garde") },
            wanted: |r, v| points(v) == 40.0 && bouts(v) == 3 && petit_in_last_trick(r, v).is_none(),
        },
        Example {
            name: "seed003-garde-sans",
            description: "Seed 003 (French Tarot, encyclopedia article), Updating the scorecard: a Garde Sans bid with a simple \
                          handful won by player A by a margin of 12 points gives ((25 + 12 + 0) * 4) + 20 + 0 = 168 points: \
                          A +504, B -168, C -168, D -168.",
            plan: Plan { shape: vec![Trumps(0, 10)], declare: vec![(0, "poignee", None)], ..fft(&SEED_000, 3, 0, "garde-sans") },
            wanted: |r, v| margin(v) == 12.0 && petit_in_last_trick(r, v).is_none(),
        },
        Example {
            name: "fft-deal1",
            description: "FFT Règlement officiel, Exemples de marque de points, first example, and Donne 1 of the score sheet \
                          (Est DUBOIS takes): the taker bids a Garde, shows a Poignée of 10 trumps, brings the Petit to the \
                          end and makes 49 points with two bouts: (25 + 8) * 2 + 20 + 10 * 2 = 106; each defender -106, the \
                          taker +318.",
            plan: Plan {
                shape: vec![Give(EST, &["T1", "T21"]), Give(NORD, &["EX"]), Trumps(EST, 10)],
                declare: vec![(EST, "poignee", None)],
                keep_petit: true,
                ..fft(&FFT_SHEET, NORD, EST, "garde")
            },
            wanted: |r, v| points(v) == 49.0 && bouts(v) == 2 && petit_in_last_trick(r, v) == Some(("DUBOIS", "DUBOIS", true)),
        },
        Example {
            name: "fft-deal2",
            description: "FFT Règlement officiel, Exemples de marque de points, second example, and Donne 2 of the score sheet \
                          (Ouest DESPRES takes): the taker wins a Garde Sans by 4 points, but the defence brings the Petit to \
                          the end: (25 + 4) * 4 - 40 = 76; each defender -76, the taker +228.",
            plan: Plan { shape: vec![Give(SUD, &["T1"])], keep_petit: true, ..fft(&FFT_SHEET, OUEST, OUEST, "garde-sans") },
            wanted: |r, v| margin(v) == 4.0 && matches!(petit_in_last_trick(r, v), Some((by, won, _)) if by != "DESPRES" && won != "DESPRES"),
        },
        Example {
            name: "fft-deal3",
            description: "FFT Règlement officiel, Exemples de marque de points, third example, and Donne 3 of the score sheet \
                          (Sud DUPONT takes): the taker fails a Prise by 7 after showing a Poignée of 10 trumps, but brings \
                          the Petit to the end: 25 + 7 + 20 - 10 = 42; each defender +42, the taker -126.",
            plan: Plan { shape: vec![Give(SUD, &["T1"]), Trumps(SUD, 10)], declare: vec![(SUD, "poignee", None)], keep_petit: true, ..fft(&FFT_SHEET, SUD, SUD, "prise") },
            wanted: |r, v| margin(v) == -7.0 && petit_in_last_trick(r, v) == Some(("DUPONT", "DUPONT", true)),
        },
        Example {
            name: "fft-deal4",
            description: "FFT Règlement officiel, Exemples de marque de points, fourth example, and Donne 4 of the score sheet \
                          (Nord DURAND takes): the taker wins a Garde by 11, the defence having shown a Poignée: \
                          (25 + 11) * 2 + 20 = 92; the taker +276, each defender -92.",
            plan: Plan { shape: vec![Trumps(SUD, 10)], declare: vec![(SUD, "poignee", None)], ..fft(&FFT_SHEET, EST, NORD, "garde") },
            wanted: |r, v| margin(v) == 11.0 && petit_in_last_trick(r, v).is_none(),
        },
        Example {
            name: "fft-deal5",
            description: "FFT Règlement officiel, Exemples de marque de points, fifth example, and Donne 5 of the score sheet \
                          (Sud DUPONT takes): on a Garde the taker announces and makes the Chelem, shows a Poignée of 10 \
                          trumps and brings the Petit to the end; the defence keeps the Excuse it held. With 2 bouts the \
                          taker makes 87 points: (46 + 25) * 2 + 20 + 20 + 400 = 582; each defender -582, the taker +1746. \
                          The taker holds the 13 highest trumps, the Petit and the four kings, draws trumps, cashes the \
                          kings and leads the Petit to the last trick.",
            plan: Plan {
                shape: vec![
                    Give(SUD, &["T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T11", "T10", "T9", "T1", "KS", "KH", "KD", "KC"]),
                    Give(DOG, &["1S", "2S", "3S", "1H", "2H", "3H"]),
                    Give(EST, &["EX"]),
                ],
                declare: vec![(SUD, "chelem", Some(&[])), (SUD, "poignee", None)],
                keep_petit: true,
                taker_skill: Some(1.0),
                ..fft(&FFT_SHEET, NORD, SUD, "garde")
            },
            wanted: |_, v| points(v) == 87.0 && bouts(v) == 2 && v.tricks.iter().all(|t| &*t.winner == "DUPONT"),
        },
        Example {
            name: "marolles-declarations",
            description: "Seed 001 (Marolles 1637), Deal and Discard: \"a player who has Two Kings, the I, and XXI and the Fool \
                          can declare Tous les Trois (3M), 2 Kings with the Fool (1M) and 5 Tarots (2M) for a total of 6M \
                          from each opponent\" (Ann holds exactly the kings of swords and cups, the I, the XXI and the Fool); \
                          and \"the total value of the 66-card pack is 74 points\": the three players' cards count 74 together.",
            plan: Plan {
                ruleset: "marolles-1637",
                players: &THREE,
                dealer: 2,
                taker: None,
                shape: vec![Give(0, &["KS", "KH", "T1", "T21", "EX"]), Without(0, &["KD", "KC"])],
                declare: vec![
                    (0, "tous_les_trois", Some(&["T1", "T21", "EX"])),
                    (0, "kings_fool", Some(&["KS", "KH", "EX"])),
                    (0, "tarots", Some(&["KS", "KH", "T1", "T21", "EX"])),
                ],
                keep_petit: false,
                taker_skill: None,
            },
            wanted: |_, _| true,
        },
        Example {
            name: "basic-3-players",
            description: "Seed 002 (Basic Tarot, 1998), counting: \"for 3 and 6 players it will result in exactly 78 points \
                          total\": a complete three-player game whose players' points sum to 78.",
            plan: Plan { ruleset: "basic", players: &THREE, dealer: 2, taker: None, shape: vec![], declare: vec![], keep_petit: false, taker_skill: None },
            wanted: |_, _| true,
        },
        Example {
            name: "basic-6-players",
            description: "Seed 002 (Basic Tarot, 1998), counting: \"for 3 and 6 players it will result in exactly 78 points \
                          total\": a complete six-player game whose players' points sum to 78.",
            plan: Plan { ruleset: "basic", players: &SIX, dealer: 5, taker: None, shape: vec![], declare: vec![], keep_petit: false, taker_skill: None },
            wanted: |_, _| true,
        },
    ]
}

pub fn main(only: &[String]) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let out = common::fixtures().join("worked");
    std::fs::create_dir_all(&out).expect("fixtures/worked can be created");
    for example in examples() {
        if !only.is_empty() && !only.iter().any(|o| o == example.name) {
            continue;
        }
        let rules = registry.get(example.plan.ruleset).expect("a built-in ruleset");
        let setup = Setup::new(rules, example.plan.players.len(), &BTreeMap::new()).expect("a valid number of players");
        let Some((seed, mut record, verdict)) = search(&setup, &example) else {
            eprintln!("{}: no game found in {MAX_SEEDS} seeds", example.name);
            continue;
        };
        record.description = Some(format!("{} Found by seeded random search (seed {seed} of examples/worked_examples.rs).", example.description));
        let path = out.join(format!("{}.json", example.name));
        let json = serde_json::to_string_pretty(&record).expect("a record is JSON");
        std::fs::write(&path, json + "\n").expect("the fixture can be written");
        let scores: Vec<String> = verdict.outcome.iter().flat_map(|o| &o.players).map(|p| format!("{} {}", p.player, p.score)).collect();
        println!("{}: seed {seed}; {}", example.name, scores.join(", "));
    }
}

/// The first seed whose game shows what the example needs.
fn search(setup: &Setup, example: &Example) -> Option<(u64, GameRecord, Verdict)> {
    for seed in 0..MAX_SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let Some(record) = play(setup, &example.plan, &mut rng) else { continue };
        let verdict = replay(setup.rules, &record).unwrap_or_else(|e| panic!("{}: the generated record cannot be read: {e}", example.name));
        if verdict.status == Status::Valid && (example.wanted)(&record, &verdict) {
            return Some((seed, record, verdict));
        }
    }
    None
}

/// Deals and plays one game following the plan; `None` when the deal is annulled.
fn play(setup: &Setup, plan: &Plan, rng: &mut ChaCha8Rng) -> Option<GameRecord> {
    let names: Vec<String> = plan.players.iter().map(|s| s.to_string()).collect();
    let deal = shaped_deal(setup, plan, rng);
    let taker_skill = plan.taker_skill.unwrap_or_else(|| rng.gen());
    let defence_skill: f64 = rng.gen();
    let skill = |p: usize| if plan.taker.map(|(t, _)| t) == Some(p) { taker_skill } else { defence_skill };

    let mut game = Game::new(setup, &names, plan.dealer as u8);
    let mut events = vec![];
    let mut apply = |game: &mut Game, e: Event| -> Option<()> {
        let r = game.apply(events.len(), &e);
        events.push(e);
        match r {
            Ok(()) => Some(()),
            Err(Stop::Annulled(_)) => None,
            Err(Stop::Violation(v)) => panic!("the plan for {:?} made an illegal move: {}", plan.players, v.message),
            Err(Stop::Input(e)) => panic!("the plan made an unreadable move: {e}"),
            Err(Stop::Ruleset(e)) => panic!("{e}"),
        }
    };
    apply(&mut game, deal)?;
    let mut declared = false;
    let mut at_first_card: Vec<(usize, &str, Option<&[&str]>)> = vec![];
    while let Some(next) = game.next() {
        let p = names.iter().position(|name| **name == *next.player).expect("a player");
        let player: Text = next.player.as_ref().into();
        let event = match game.stage {
            Stage::Bidding => {
                let bid = match plan.taker {
                    Some((t, contract)) if t == p => contract,
                    _ => "pass",
                };
                Event::Bid { player, bid: bid.into() }
            }
            Stage::Discard => Event::Discard { player, cards: discard(&game, p, next.count.unwrap_or(0), rng) },
            _ if !declared || at_first_card.iter().any(|&(who, _, _)| who == p) => {
                // Made before the first card; one made at the declarer's first card (`when
                // first-play`, the poignée) at his turn in the first trick.
                let now: Vec<_> = if declared {
                    at_first_card.iter().copied().filter(|&(who, _, _)| who == p).collect()
                } else {
                    let first_play = |name: &str| setup.rules.declarations.iter().any(|d| d.name == name && d.when == When::FirstPlay);
                    at_first_card = plan.declare.iter().copied().filter(|&(_, d, _)| first_play(d)).collect();
                    plan.declare.iter().copied().filter(|&(_, d, _)| !first_play(d)).collect()
                };
                if declared {
                    at_first_card.retain(|&(who, _, _)| who != p);
                }
                declared = true;
                for (who, declaration, shown) in now {
                    let cards = match shown {
                        Some(cards) => cards.iter().map(|c| Text::from(*c)).collect(),
                        None => ten_highest_trumps(game.hands[who]),
                    };
                    apply(&mut game, Event::Declare { player: names[who].as_str().into(), declaration: declaration.into(), cards })?;
                }
                continue;
            }
            _ => Event::Play { player, card: choose_card(&game, p, plan, skill(p), rng).code() },
        };
        apply(&mut game, event)?;
    }
    Some(GameRecord {
        ruleset: plan.ruleset.to_string(),
        options: BTreeMap::new(),
        players: names.clone(),
        dealer: names[plan.dealer].clone(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: None,
        events,
    })
}

/// A shuffled deal with the plan's cards moved where it wants them.
fn shaped_deal(setup: &Setup, plan: &Plan, rng: &mut ChaCha8Rng) -> Event {
    let n = plan.players.len();
    let mut pack: Vec<Card> = setup.rules.pack.cards.iter().collect();
    pack.shuffle(rng);
    let mut slots: Vec<Vec<Card>> = vec![];
    for p in 0..n {
        let k = if p == plan.dealer { setup.dealer_hand } else { setup.hand };
        slots.push(pack.drain(..k).collect());
    }
    slots.push(pack);
    let mut fixed = CardSet::EMPTY;
    for shape in &plan.shape {
        match *shape {
            Shape::Give(to, cards) => {
                for code in cards {
                    give(&mut slots, &mut fixed, to, card(code), rng);
                }
            }
            Shape::Without(from, cards) => {
                for code in cards {
                    let c = card(code);
                    if slots[from].contains(&c) {
                        let others: Vec<usize> = (0..n).filter(|&q| q != from).collect();
                        give(&mut slots, &mut fixed, *others.choose(rng).expect("another hand"), c, rng);
                    }
                    fixed.insert(c);
                }
            }
            Shape::Trumps(to, at_least) => {
                while slots[to].iter().filter(|c| c.is_trump()).count() < at_least {
                    let elsewhere: Vec<Card> = CardSet::trumps().and(setup.rules.pack.cards).minus(fixed).iter().filter(|c| !slots[to].contains(c)).collect();
                    give(&mut slots, &mut fixed, to, *elsewhere.choose(rng).expect("a trump to move"), rng);
                }
                for &c in slots[to].iter().filter(|c| c.is_trump()) {
                    fixed.insert(c);
                }
            }
        }
    }
    let dealer_hand = &slots[plan.dealer];
    let cut = setup.rules.deal.cut.is_some().then(|| dealer_hand.choose(rng).expect("the dealer has cards").code());
    let codes = |cards: &[Card]| {
        let mut sorted = cards.to_vec();
        sorted.sort();
        sorted.iter().map(|c| c.code()).collect::<Vec<_>>()
    };
    Event::Deal { hands: (0..n).map(|p| (plan.players[p].into(), codes(&slots[p]))).collect(), dog: codes(&slots[n]), cut, piles: BTreeMap::new(), packets: vec![] }
}

/// Moves card `c` into slot `to`, in exchange for a card of `to` that no earlier shape placed.
fn give(slots: &mut [Vec<Card>], fixed: &mut CardSet, to: usize, c: Card, rng: &mut ChaCha8Rng) {
    let from = slots.iter().position(|s| s.contains(&c)).expect("every card is dealt");
    if from != to {
        assert!(!fixed.contains(c), "two shapes want {c} in different places");
        let free: Vec<usize> = (0..slots[to].len()).filter(|&i| !fixed.contains(slots[to][i])).collect();
        let i = *free.choose(rng).expect("room in the hand");
        let j = slots[from].iter().position(|&x| x == c).expect("the card is there");
        let swapped = slots[to][i];
        slots[to][i] = c;
        slots[from][j] = swapped;
    }
    fixed.insert(c);
}

fn card(code: &str) -> Card {
    Card::parse(code).unwrap_or_else(|| panic!("bad card code {code}"))
}

/// A single poignée: the ten highest trumps of the hand.
fn ten_highest_trumps(hand: CardSet) -> Vec<Text> {
    let mut trumps: Vec<Card> = hand.and(CardSet::trumps()).iter().collect();
    trumps.reverse();
    trumps.iter().take(10).map(|c| c.code()).collect()
}

/// A random discard among the cards the rules allow, keeping trumps, kings and the Fool when the
/// rules only penalize discarding them.
fn discard(game: &Game, p: usize, k: usize, rng: &mut ChaCha8Rng) -> Vec<Text> {
    let allowed = game.discardable(p as u8);
    let valuable = CardSet::trumps().or(CardSet::single(FOOL)).or(Card::all().filter(|&c| rank(c) == 14).collect());
    let plain = allowed.minus(valuable);
    let pool = if plain.len() >= k { plain } else { allowed };
    let mut cards: Vec<Card> = pool.iter().collect();
    cards.shuffle(rng);
    cards.iter().take(k).map(|c| c.code()).collect()
}

/// The card a player plays: the Excuse before the last trick, the Petit kept back if the plan says
/// so, and otherwise, `skill` of the time, the card that wins the trick so far (the strongest when
/// leading), else a random legal card.
fn choose_card(game: &Game, p: usize, plan: &Plan, skill: f64, rng: &mut ChaCha8Rng) -> Card {
    let legal = game.legal(p as u8);
    if game.hands[p].len() == 2 && legal.contains(FOOL) {
        return FOOL;
    }
    let mut cards: Vec<Card> = legal.iter().collect();
    if plan.keep_petit && cards.len() > 1 {
        cards.retain(|&c| c != card("T1"));
    }
    if rng.gen_bool(skill) {
        winning_card(game, &cards)
    } else {
        *cards.choose(rng).expect("a legal card")
    }
}

/// Leading, the strongest card; following, the cheapest card that beats the trick so far, or the
/// card worth least if none does. Only the French Tarot examples play this way, and their suits
/// rank in the natural order.
fn winning_card(game: &Game, cards: &[Card]) -> Card {
    let worth = |c: Card| game.setup.rules.counting.values[c.0 as usize];
    let led = game.current.iter().map(|&(_, c)| c).find(|c| !c.is_fool()).map(|c| c.lane());
    let strength = |c: Card| match c.kind() {
        Kind::Trump(n) => 100 + n,
        Kind::Suited(s, r) if led.is_none() || led == Some(s) => r,
        _ => 0,
    };
    if game.current.is_empty() {
        return *cards.iter().max_by_key(|&&c| strength(c)).expect("a card");
    }
    let best = game.current.iter().map(|&(_, c)| strength(c)).max().unwrap_or(0);
    match cards.iter().filter(|&&c| strength(c) > best).min_by_key(|&&c| strength(c)) {
        Some(&c) => c,
        None => *cards.iter().min_by_key(|&&c| (worth(c), strength(c))).expect("a card"),
    }
}

fn rank(c: Card) -> u8 {
    match c.kind() {
        Kind::Suited(_, r) => r,
        _ => 0,
    }
}

// What a replayed game shows.

fn value(v: &Verdict, key: &str) -> f64 {
    let o = v.outcome.as_ref().expect("a finished game");
    o.value(key).and_then(|x| x.as_f64()).unwrap_or_else(|| panic!("no number `{key}` in the score"))
}

fn points(v: &Verdict) -> f64 {
    value(v, "points")
}

fn bouts(v: &Verdict) -> i64 {
    value(v, "bouts") as i64
}

/// The taker's points less his target: positive when the contract is made.
fn margin(v: &Verdict) -> f64 {
    value(v, "points") - value(v, "target")
}

/// If the Petit is in the last trick: who played it, who took the trick, and whether the Petit itself
/// took it.
fn petit_in_last_trick<'a>(record: &'a GameRecord, v: &'a Verdict) -> Option<(&'a str, &'a str, bool)> {
    let plays: Vec<(&str, &str)> = record
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Play { player, card } => Some((player.as_str(), card.as_str())),
            _ => None,
        })
        .collect();
    let last_trick = &plays[plays.len() - record.players.len()..];
    let &(by, _) = last_trick.iter().find(|(_, c)| *c == "T1")?;
    let winner = v.tricks.last()?.winner.as_ref();
    Some((by, winner, by == winner))
}

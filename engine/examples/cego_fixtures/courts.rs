//! Courts kept in the Leere games (PB9, P "Normal Games"): a declarer dealt too few empty cards keeps
//! courts in their stead, which then take no trick. For each game, a steered game whose declarer was
//! dealt too few and keeps a court that would have taken a trick and takes none
//! (fixtures/cego/valid/<contract>-court.json); the same game with empty cards dealt him in place of
//! cards he laid away, so that the court is kept by a declarer who had the empty cards the game asks
//! for (fixtures/cego/invalid/discard.require.N.json); and Eine Leere bid by a player who holds no card
//! of a suit, Zwei Verschiedene by one who holds cards of one suit only
//! (fixtures/cego/invalid/bidding.contract.NAME.by.json).

use super::{contract, expect};
use crate::common::write;

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{Event, GameRecord};

fn is_trump(c: &str) -> bool {
    c.strip_prefix('T').is_some_and(|n| n.parse::<u8>().is_ok())
}

fn is_court(c: &str) -> bool {
    !is_trump(c) && c.len() == 2 && "KQCJ".contains(&c[..1])
}

fn is_empty(c: &str) -> bool {
    !is_trump(c) && !is_court(c)
}

fn suit(c: &str) -> char {
    c.chars().last().expect("a card code")
}

/// A suit card's rank in its suit, higher the stronger: the courts above the numerals (the black
/// numerals from the 10 down, the red ones from the 1 up).
fn strength(c: &str) -> i32 {
    match &c[..c.len() - 1] {
        "K" => 14,
        "Q" => 13,
        "C" => 12,
        "J" => 11,
        n => {
            let n: i32 = n.parse().expect("a numeral");
            if "HD".contains(suit(c)) {
                11 - n
            } else {
                n
            }
        }
    }
}

/// The number of suits the empty cards among `cards` are of, and whether two of them share a suit.
fn empty_suits(cards: &[String]) -> (usize, bool) {
    let mut per: BTreeMap<char, usize> = BTreeMap::new();
    for c in cards.iter().filter(|c| is_empty(c)) {
        *per.entry(suit(c)).or_default() += 1;
    }
    (per.len(), per.values().any(|&n| n >= 2))
}

/// Whether a hand dealt is short of the empty cards the game asks for (PB9): none in Eine Leere, no
/// two of one suit in Zwei Leere, none of two suits in Zwei Verschiedene.
fn short(game: &str, dealt: &[String]) -> bool {
    let (suits, pair) = empty_suits(dealt);
    match game {
        "eine-leere" => suits == 0,
        "zwei-leere" => !pair,
        _ => suits < 2,
    }
}

/// The declarer, the cards dealt him, and those he kept before the Blinde (his first discard's rest).
fn kept(rec: &GameRecord) -> Option<(String, Vec<String>, Vec<String>)> {
    let Event::Deal { hands, .. } = &rec.events[0] else { return None };
    let Some(Event::Discard { player, cards }) = rec.events.iter().find(|e| matches!(e, Event::Discard { .. })) else { return None };
    let dealt: Vec<String> = hands[player].iter().map(|c| c.to_string()).collect();
    let kept = dealt.iter().filter(|c| !cards.iter().any(|d| d == *c)).cloned().collect();
    Some((player.to_string(), dealt, kept))
}

/// Whether a court the declarer kept, played to a trick with no trump, was the highest card of the suit
/// led there (of its own suit where it led): a court that would have taken the trick.
fn court_would_win(rec: &GameRecord, declarer: &str, kept: &[String]) -> bool {
    let plays: Vec<(&str, &str)> = rec
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Play { player, card } => Some((&**player, &**card)),
            _ => None,
        })
        .collect();
    plays.chunks(rec.players.len()).any(|t| {
        let Some(&(_, court)) = t.iter().find(|&&(p, c)| p == declarer && is_court(c) && kept.iter().any(|k| k == c)) else { return false };
        let led = suit(t[0].1);
        !t.iter().any(|(_, c)| is_trump(c)) && suit(court) == led && t.iter().all(|(_, c)| *c == court || suit(c) != led || strength(c) < strength(court))
    })
}

/// `rec` with empty cards of other players' hands dealt to the declarer in place of cards he laid away
/// (which go to those players), so that he is no longer short; his discard lays the empty cards away
/// in their stead. None where the others hold too few.
fn with_empty_cards(rec: &GameRecord, game: &str, declarer: &str) -> Option<(GameRecord, Vec<String>)> {
    let mut out = rec.clone();
    let at = rec.events.iter().position(|e| matches!(e, Event::Discard { .. }))?;
    let Event::Deal { hands, .. } = &mut out.events[0] else { return None };
    let Event::Discard { cards: laid, .. } = rec.events[at].clone() else { return None };
    // The empty cards to give him: one of any suit, two of one suit, or two of two suits.
    let others: Vec<(String, String)> =
        hands.iter().filter(|(p, _)| &***p != declarer).flat_map(|(p, h)| h.iter().filter(|c| is_empty(c)).map(|c| (p.to_string(), c.to_string()))).collect();
    let wanted: Vec<(String, String)> = match game {
        "eine-leere" => others.into_iter().take(1).collect(),
        "zwei-leere" => {
            let s = others.iter().map(|(_, c)| suit(c)).find(|&s| others.iter().filter(|(_, c)| suit(c) == s).count() >= 2)?;
            others.into_iter().filter(|(_, c)| suit(c) == s).take(2).collect()
        }
        _ => {
            let first = others.first()?.clone();
            let second = others.iter().find(|(_, c)| suit(c) != suit(&first.1))?.clone();
            vec![first, second]
        }
    };
    // He gives the first cards he laid away, in the same places.
    let mut laid = laid.to_vec();
    let mut given = vec![];
    for ((owner, empty), i) in wanted.iter().zip(0..) {
        let away = laid[i].to_string();
        let mine = hands.get_mut(declarer)?;
        let j = mine.iter().position(|c| **c == *away)?;
        mine[j] = empty.as_str().into();
        let theirs = hands.get_mut(owner.as_str())?;
        let k = theirs.iter().position(|c| **c == **empty)?;
        theirs[k] = away.as_str().into();
        laid[i] = empty.as_str().into();
        given.push(format!("{empty} from {owner} for {away}"));
    }
    out.events[at] = Event::Discard { player: declarer.into(), cards: laid };
    Some((out, given))
}

/// The games, each with the seed of its search.
const GAMES: [(&str, u64, &str); 3] = [
    ("eine-leere", 48, "An Eine Leere whose declarer, dealt no empty card, keeps a court, which would have taken a trick and takes none"),
    (
        "zwei-leere",
        49,
        "A Zwei Leere whose declarer, dealt no two empty cards of one suit, keeps two cards of one suit, a court among them, which would have taken a trick and takes none",
    ),
    (
        "zwei-verschiedene",
        50,
        "A Zwei Verschiedene whose declarer, dealt no empty cards of two suits, keeps two cards of two suits, a court among them, which would have taken a trick and takes none",
    ),
];

pub fn main(rules: &Ruleset, root: &Path) {
    for (game, seed0, what) in GAMES {
        let sim = SimOptions { contract: ContractChoice::Only(game.into()), ..SimOptions::steered() };
        let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed0, 50_000), |rec, v| {
            (contract(&v) == game).then_some(())?;
            let (declarer, dealt, kept) = kept(&rec)?;
            (short(game, &dealt) && kept.iter().any(|c| is_court(c)) && court_would_win(&rec, &declarer, &kept)).then_some(())?;
            let (bad, given) = with_empty_cards(&rec, game, &declarer)?;
            Some((rec, declarer, bad, given))
        })
        .map(|(seed, (rec, declarer, bad, given))| (seed, rec, declarer, bad, given));
        let Some((seed, mut rec, declarer, mut bad, given)) = found else {
            eprintln!("{game}: no court kept by a declarer dealt too few empty cards in 50000 games");
            continue;
        };
        let origin = format!("game {seed} of seed {seed0} of `cego_fixtures`");
        rec.description = Some(format!("{what}: {origin}"));
        write(&root.join("valid").join(format!("{game}-court.json")), &rec);
        bad.description = Some(format!(
            "The {game} of valid/{game}-court.json with empty cards dealt its declarer {declarer} ({}), who lays them away and keeps the court: {origin}",
            given.join(", ")
        ));
        let rule = expect(rules, &bad, "discard.require.");
        write(&root.join("invalid").join(format!("{rule}.json")), &bad);
    }
    // Eine Leere bid with no card of a suit, Zwei Verschiedene with cards of one suit only.
    bid_short(rules, root, "eine-leere", 0, 51, "Eine Leere bid by a player who holds no card of a suit");
    bid_short(rules, root, "zwei-verschiedene", 1, 52, "Zwei Verschiedene bid by a player who holds cards of one suit only");
}

/// A Leere game bid by a player who holds cards of fewer suits than it asks for even in place of empty
/// cards: in a seeded game, the first speaker's cards of all but his first `suits` suits exchanged for
/// trumps of the other hands and the Blinde, and his first bid made `game`.
fn bid_short(rules: &Ruleset, root: &Path, game: &str, suits: usize, seed0: u64, what: &str) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed0);
    let mut rec = random_game_with(rules, 4, &BTreeMap::new(), &SimOptions::steered(), &mut rng).expect("a game");
    let first = rec.events.iter().position(|e| matches!(e, Event::Bid { .. })).expect("a bid");
    let Event::Bid { player, bid: said } = rec.events[first].clone() else { unreachable!("a bid") };
    let Event::Deal { hands, dog, .. } = &mut rec.events[0] else { unreachable!("the deal") };
    let mut trumps: Vec<(Option<String>, usize)> = vec![];
    for (p, h) in hands.iter().filter(|(p, _)| **p != player) {
        trumps.extend(h.iter().enumerate().filter(|(_, c)| is_trump(c)).map(|(i, _)| (Some(p.to_string()), i)));
    }
    trumps.extend(dog.iter().enumerate().filter(|(_, c)| is_trump(c)).map(|(i, _)| (None, i)));
    let mut left: Vec<char> = vec![];
    for s in hands[&player].iter().filter(|c| !is_trump(c)).map(|c| suit(c)) {
        if !left.contains(&s) && left.len() < suits {
            left.push(s);
        }
    }
    let given: Vec<usize> = hands[&player].iter().enumerate().filter(|(_, c)| !is_trump(c) && !left.contains(&suit(c))).map(|(i, _)| i).collect();
    for (i, (owner, j)) in given.into_iter().zip(trumps) {
        let place = match &owner {
            Some(o) => &mut hands.get_mut(o.as_str()).expect("a hand")[j],
            None => &mut dog[j],
        };
        let trump = std::mem::take(place);
        let suited = std::mem::replace(&mut hands.get_mut(&player).expect("his hand")[i], trump);
        match &owner {
            Some(o) => hands.get_mut(o.as_str()).expect("a hand")[j] = suited,
            None => dog[j] = suited,
        }
    }
    rec.events[first] = Event::Bid { player: player.clone(), bid: game.into() };
    let cards = if suits == 0 { "his suit cards" } else { "his cards of the other suits" };
    rec.description = Some(format!(
        "{what}: event {first} of the first game of seed {seed0} of `cego_fixtures`, where {player} said {said}, {cards} dealt to the others and the Blinde for their trumps"
    ));
    let rule = format!("bidding.contract.{game}.by");
    expect(rules, &rec, &rule);
    write(&root.join("invalid").join(format!("{rule}.json")), &rec);
}

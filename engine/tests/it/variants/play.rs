//! The play: who leads, which way play goes, and seed 003's Petit imprenable.

use std::collections::BTreeMap;

use super::{games, opts, records, ruleset};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{replay, GameRecord, Status};

/// Queen of Tarot: the declarer leads the first trick.
#[test]
fn the_declarer_leads_in_the_queen_of_tarot() {
    let vs = games("queen-of-tarot", 4, BTreeMap::new(), 300);
    assert!(vs.len() > 20);
    for v in vs {
        let taker = v.outcome.as_ref().unwrap().taker.clone().unwrap();
        assert_eq!(v.tricks[0].leader, taker);
    }
}

/// Basic Tarot: "Traditional tarot play is counter-clockwise. ... Optional rule: Many people are used
/// to playing clockwise". The record lists each player before the one to his right; clockwise, the
/// dealer's left leads and play goes round the list backwards.
#[test]
fn basic_play_may_go_clockwise() {
    use tarot_engine::Event;
    let rules = ruleset("basic");
    for (option, step) in [("anticlockwise", 1), ("clockwise", 4)] {
        for game in records("basic", 5, opts(&[("direction", serde_json::json!(option))]), 6).take(20) {
            let dealer = game.players.iter().position(|p| *p == game.dealer).unwrap();
            let plays: Vec<&str> = game.events.iter().filter_map(|e| if let Event::Play { player, .. } = e { Some(player.as_str()) } else { None }).take(3).collect();
            let expected: Vec<&str> = (1..=3).map(|k| game.players[(dealer + k * step) % 5].as_str()).collect();
            assert_eq!(plays, expected, "{option}");
            let v = replay(rules, &game).unwrap();
            assert_eq!(v.status, Status::Valid);
            let listed: Vec<&str> = v.outcome.as_ref().unwrap().players.iter().map(|p| &*p.player).collect();
            assert_eq!(listed, game.players.iter().map(String::as_str).collect::<Vec<_>>(), "scores in the record's order");
            // The same game read the other way is out of turn at its first card.
            let mut other = game.clone();
            other.options = opts(&[("direction", serde_json::json!(if option == "clockwise" { "anticlockwise" } else { "clockwise" }))]);
            assert_eq!(replay(rules, &other).unwrap().violation.map(|x| x.rule.to_string()).as_deref(), Some("play.order"));
        }
    }
}

/// A deal of fft-4p-petit-imprenable where Bob (first hand, Ann dealing) holds the Petit and no other
/// trump, nor the Excuse, played out at random; the same deal under fft-4p is annulled (petit sec).
fn petit_imprenable_game(rng: &mut ChaCha8Rng) -> GameRecord {
    use rand::seq::SliceRandom;
    use tarot_engine::Event;
    use tarot_engine::{Card, FOOL};
    let table: Vec<String> = ["Ann", "Bob", "Cid", "Dan"].iter().map(|s| s.to_string()).collect();
    let mut others: Vec<Card> = ruleset("fft-4p").pack.cards.iter().filter(|c| *c != Card::trump(1)).collect();
    others.shuffle(rng);
    let (plain, rest): (Vec<Card>, Vec<Card>) = others.iter().partition(|c| !c.is_trump() && **c != FOOL);
    let mut bob = vec![Card::trump(1)];
    bob.extend(&plain[..17]);
    let mut pool: Vec<Card> = plain[17..].iter().chain(&rest).copied().collect();
    pool.shuffle(rng);
    let code = |cs: &[Card]| cs.iter().map(|c| c.code()).collect::<Vec<_>>();
    let hands = [("Ann", &pool[0..18]), ("Bob", &bob[..]), ("Cid", &pool[18..36]), ("Dan", &pool[36..54])].into_iter().map(|(n, h)| (n.into(), code(h))).collect();
    let deal = Event::Deal { hands, dog: code(&pool[54..60]), cut: None, piles: BTreeMap::new(), packets: vec![] };
    let plain_game = GameRecord {
        ruleset: "fft-4p".into(),
        options: BTreeMap::new(),
        players: table.clone(),
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: None,
        events: vec![deal.clone()],
    };
    assert_eq!(replay(ruleset("fft-4p"), &plain_game).unwrap().status, Status::Annulled);
    tarot_engine::random_game_from(ruleset("fft-4p-petit-imprenable"), &table, 0, deal, &BTreeMap::new(), rng).unwrap()
}

/// Seed 003's Petit imprenable: the player whose only trump is the Petit plays on; the Petit goes to
/// any trick like the Fool, keeps its rank, and when it does not take its trick goes back to its owner
/// for an empty card. Under fft-4p the same deal is annulled (petit sec).
#[test]
fn the_petit_imprenable_plays_like_the_fool() {
    use tarot_engine::Event;
    use tarot_engine::{Card, FOOL};
    let rules = ruleset("fft-4p-petit-imprenable");
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (mut like_the_fool, mut given_back, mut won) = (0, 0, 0);
    for _ in 0..300 {
        let game = petit_imprenable_game(&mut rng);
        let v = replay(rules, &game).unwrap();
        // The simulator plays legal moves only: a game ends valid or annulled.
        assert_ne!(v.status, Status::Invalid, "{:?}", v.violation);
        if v.status != Status::Valid {
            continue;
        }
        assert!(v.notes.iter().any(|n| n.contains("the Petit imprenable")), "{:?}", v.notes);
        let trick = v.tricks.iter().find(|t| t.cards.contains(&Card::trump(1))).unwrap();
        // Bob's hand when he plays the Petit: had he a card of the suit led, only the Excuse's freedom
        // allows the Petit there (without it he must follow).
        let Event::Deal { hands, .. } = &game.events[0] else { unreachable!() };
        let mut held: Vec<Card> = hands["Bob"].iter().map(|c| Card::parse(c).unwrap()).collect();
        let plays: Vec<(&str, Card)> =
            game.events.iter().filter_map(|e| if let Event::Play { player, card } = e { Some((player.as_str(), Card::parse(card).unwrap())) } else { None }).collect();
        let at = plays.iter().position(|p| p.1 == Card::trump(1)).unwrap();
        for (who, c) in &plays[..at] {
            if *who == "Bob" {
                held.retain(|h| h != c);
            }
        }
        let led = plays[at - at % 4..at].iter().map(|p| p.1).find(|c| *c != FOOL);
        if let Some(led) = led.filter(|l| !l.is_trump()) {
            if held.iter().any(|h| h.lane() == led.lane()) {
                like_the_fool += 1;
            }
        }
        // It goes back only from a trick the other side takes (a partner's trick keeps it in the camp).
        let taker = v.outcome.as_ref().unwrap().taker.as_deref().unwrap().to_string();
        let same_side = (taker == "Bob") == (*trick.winner == *taker);
        let back = v.notes.iter().any(|n| n.contains("goes back to Bob"));
        if &*trick.winner == "Bob" {
            won += 1;
        }
        assert_eq!(back, !same_side, "{:?} {:?}", trick, v.notes);
        given_back += back as usize;
    }
    assert!(like_the_fool > 5 && given_back > 5 && won > 5, "played like the Fool {like_the_fool}, given back {given_back}, won {won}");
}

/// "Played like the Fool", the Petit imprenable obliges nothing: with no card of the suit led, or
/// trumps led, its owner may play any card he holds, as a player whose only trump is the Excuse may.
#[test]
fn the_petit_imprenable_never_has_to_be_played() {
    use tarot_engine::Event;
    use tarot_engine::{Card, FOOL};
    let rules = ruleset("fft-4p-petit-imprenable");
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut trumps_led, mut suit_lacking) = (0, 0);
    for _ in 0..400 {
        let game = petit_imprenable_game(&mut rng);
        // Where Bob takes the dog, his hand is no longer the one dealt.
        if game.events.iter().any(|e| matches!(e, Event::Discard { player, .. } if player == "Bob")) {
            continue;
        }
        let Event::Deal { hands, .. } = &game.events[0] else { unreachable!() };
        let mut held: Vec<Card> = hands["Bob"].iter().map(|c| Card::parse(c).unwrap()).collect();
        let mut trick = vec![];
        for (i, e) in game.events.iter().enumerate() {
            let Event::Play { player, card } = e else { continue };
            let card = Card::parse(card).unwrap();
            if *player == "Bob" {
                // Bob's turn, the Petit in hand, no card of the suit led besides it: every card he holds is
                // legal.
                let led = trick.iter().copied().find(|c: &Card| *c != FOOL);
                if let Some(led) = led.filter(|l| held.contains(&Card::trump(1)) && !held.iter().any(|h| h.lane() == l.lane() && *h != Card::trump(1))) {
                    let before = GameRecord { events: game.events[..i].to_vec(), ..game.clone() };
                    let next = replay(rules, &before).unwrap().next.unwrap();
                    let mut legal: Vec<Card> = next.legal.iter().map(|c| Card::parse(c).unwrap()).collect();
                    legal.sort();
                    held.sort();
                    assert_eq!(legal, held, "{} led", led);
                    if led.is_trump() {
                        trumps_led += 1
                    } else {
                        suit_lacking += 1
                    }
                }
                held.retain(|h| *h != card);
            }
            trick.push(card);
            if trick.len() == 4 {
                trick.clear();
            }
        }
    }
    assert!(trumps_led > 5 && suit_lacking > 5, "trumps led {trumps_led}, a suit Bob lacks {suit_lacking}");
}

/// A deal one ruleset annuls and another plays (a petit sec, played under the Petit imprenable): replay
/// refuses what follows the annulment, and a comparison of the two shows the annulment, noting that
/// the record goes on.
#[test]
fn a_comparison_shows_the_annulment_another_ruleset_plays_on() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fft-4p-petit-imprenable/valid/untouchable.json");
    let rec = tarot_engine::parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut under_fft = rec.clone();
    under_fft.ruleset = "fft-4p".into();
    let e = replay(ruleset("fft-4p"), &under_fft).unwrap_err();
    assert!(e.message.contains("annulled at event 0 (annul.petit_sec)"), "{e}");
    let c = tarot_engine::compare_game(&[ruleset("fft-4p"), ruleset("fft-4p-petit-imprenable")], &rec);
    let fft = c.replays[0].verdict.as_ref().unwrap_or_else(|| panic!("{:?}", c.replays[0].cannot_replay));
    assert_eq!(fft.status, Status::Annulled);
    assert!(fft.notes.iter().any(|n| n.contains("goes on after the annulment")), "{:?}", fft.notes);
    assert_eq!(c.replays[1].verdict.as_ref().map(|v| v.status), Some(Status::Valid));
}

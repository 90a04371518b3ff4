//! The deal: Marolles on 78 cards, the mort who deals and sits out, the order of the deal.

use std::collections::BTreeMap;

use super::{opts, records, ruleset};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::Q;
use tarot_engine::{replay, Status};

/// Marolles on 78 cards: 25 cards to each of the dealer's opponents, 28 to the dealer, who discards 3.
#[test]
fn marolles_78_deals_and_discards_as_the_editor_says() {
    let rules = ruleset("marolles-78");
    let g = random_game(rules, 3, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(5)).unwrap();
    let tarot_engine::Event::Deal { hands, .. } = &g.events[0] else { panic!() };
    let mut sizes: Vec<usize> = hands.values().map(Vec::len).collect();
    sizes.sort();
    assert_eq!(sizes, vec![25, 25, 28]);
    let discards: Vec<usize> = g
        .events
        .iter()
        .filter_map(|e| match e {
            tarot_engine::Event::Discard { cards, .. } => Some(cards.len()),
            _ => None,
        })
        .collect();
    assert_eq!(discards, vec![3]);
    assert_eq!(replay(rules, &g).unwrap().status, Status::Valid);
}

/// The FFT's table of five with a mort: "un des joueurs (le mort) procède à la distribution aux 4
/// autres joueurs et ne prend part à la partie en cours. Le mort ne compte pas dans les comptes de
/// cette partie." The four others play fft-4p, from the mort's right; the mort scores nothing.
#[test]
fn the_mort_deals_and_sits_out() {
    let rules = ruleset("fft-5p-mort");
    let mut valid = 0;
    for game in records("fft-5p-mort", 5, BTreeMap::new(), 8).take(200) {
        let dealer = game.players.iter().position(|p| *p == game.dealer).unwrap();
        let tarot_engine::Event::Deal { hands, dog, .. } = &game.events[0] else { panic!("a deal first") };
        assert_eq!(hands.len(), 4);
        assert!(!hands.contains_key(game.dealer.as_str()));
        assert!(hands.values().all(|h| h.len() == 18) && dog.len() == 6);
        // First hand is the player after the mort.
        if let Some(tarot_engine::Event::Bid { player, .. }) = game.events.get(1) {
            assert_eq!(**player, *game.players[(dealer + 1) % 5]);
        }
        let v = replay(rules, &game).unwrap();
        // The simulator plays legal moves only: a game ends valid or annulled.
        assert_ne!(v.status, Status::Invalid, "{:?}", v.violation);
        if v.status != Status::Valid {
            continue;
        }
        valid += 1;
        let o = v.outcome.as_ref().unwrap();
        assert_eq!(o.players.len(), 5);
        let mort = o.players.iter().find(|p| *p.player == *game.dealer).unwrap();
        assert_eq!((mort.score, mort.card_points, mort.tricks), (Q::ZERO, Q::ZERO, 0));
        assert_eq!(o.players.iter().map(|p| p.score).sum::<Q>(), Q::ZERO);
        assert!(v.notes[0].contains("sits this deal out"), "{:?}", v.notes);
        let mut twice = game.clone();
        twice.players[1] = twice.players[2].clone();
        assert_eq!(replay(rules, &twice).unwrap_err().message, format!("{} is listed twice among the players", game.players[2]));
        // A packet dealt to the mort is refused, saying why.
        let mut dealt = game.clone();
        if let tarot_engine::Event::Deal { packets, .. } = &mut dealt.events[0] {
            packets[0].to = Some(game.dealer.as_str().into());
        }
        let e = replay(rules, &dealt).unwrap_err();
        assert!(e.event == Some(0) && e.message.contains("sits this deal out"), "{}", e.message);
        // A move by the mort is refused, saying why.
        let mut wrong = game.clone();
        if let tarot_engine::Event::Bid { player, .. } = &mut wrong.events[1] {
            *player = game.dealer.as_str().into();
            let e = replay(rules, &wrong).unwrap_err();
            assert_eq!(e.event, Some(1));
            assert!(e.message.contains("sits this deal out"), "{}", e.message);
        }
    }
    assert!(valid > 100, "{valid}");
}

/// The order of the deal, when a record gives it: the FFT's packets of three round the table and the
/// dog dealt card by card, never the first or last card (seed 000: the first or last three); seed
/// 000's Petit in the first packet cancelling the deal; the three-player game 4 by 4 (FFT) or 3 by 3
/// (seed 003); Marolles in fives or threes.
#[test]
fn the_order_of_the_deal_follows_the_rules() {
    use tarot_engine::{Event, Packet};
    let fft = ruleset("fft-4p");
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let game = random_game(fft, 4, &BTreeMap::new(), &mut rng).unwrap();
    let with_packets = |g: &tarot_engine::GameRecord, f: &dyn Fn(&mut Vec<Packet>)| {
        let mut g = g.clone();
        g.events.truncate(1);
        if let Event::Deal { packets, .. } = &mut g.events[0] {
            f(packets);
        }
        g
    };
    let rule = |rules, g: &tarot_engine::GameRecord| replay(rules, g).unwrap().violation.map(|v| v.rule.to_string());
    assert_eq!(rule(fft, &with_packets(&game, &|_| {})), None);
    // The dog dealt the last card of the pack.
    let last_to_dog = with_packets(&game, &|p| {
        let d = p.iter().position(|x| x.to.is_none()).unwrap();
        let dog = p.remove(d);
        p.push(dog);
    });
    assert_eq!(rule(fft, &last_to_dog).as_deref(), Some("deal.dog_apart"));
    // Just after the first packet: the fourth card, allowed both at the FFT and by seed 000.
    let fourth = with_packets(&game, &|p| {
        let d = p.iter().position(|x| x.to.is_none()).unwrap();
        let dog = p.remove(d);
        p.insert(1, dog);
    });
    assert_eq!(rule(fft, &fourth), None);
    let mut seed000 = fourth.clone();
    seed000.options = opts(&[("dog_apart", serde_json::json!(3))]);
    assert_eq!(rule(fft, &seed000), None, "the fourth card is past the first three");
    // Just before the last packet: the fourth card from the end. With packets of three, a dog card
    // between two packets is never among the first three or the last three, so both readings agree.
    let mut before_last = with_packets(&game, &|p| {
        let d = p.iter().position(|x| x.to.is_none()).unwrap();
        let dog = p.remove(d);
        let at = p.len() - 1;
        p.insert(at, dog);
    });
    assert_eq!(rule(fft, &before_last), None);
    before_last.options = opts(&[("dog_apart", serde_json::json!(3))]);
    assert_eq!(rule(fft, &before_last), None);
    let mut last_three = last_to_dog.clone();
    last_three.options = opts(&[("dog_apart", serde_json::json!(3))]);
    assert_eq!(rule(fft, &last_three).as_deref(), Some("deal.dog_apart"));

    // Seed 000's Petit in the first packet: played at the FFT, cancels the deal under the option; a
    // record without the order of the deal cannot say, and the verdict says why.
    let cancels = opts(&[("petit_first_packet", serde_json::json!("cancels"))]);
    let mut checked = 0;
    for _ in 0..100 {
        let g = random_game(fft, 4, &BTreeMap::new(), &mut rng).unwrap();
        let Event::Deal { packets, .. } = &g.events[0] else { unreachable!() };
        let petit_first = packets.iter().filter(|p| p.to.is_some()).take(4).any(|p| p.cards.iter().any(|c| c == "T1"));
        let mut under = g.clone();
        under.options = cancels.clone();
        // Only the deal: a deal the option annuls is over, and a record that went on would be refused.
        under.events.truncate(1);
        let v = replay(fft, &under).unwrap();
        assert_eq!(v.annulled.as_ref().is_some_and(|a| &*a.rule == "annul.petit_first_packet"), petit_first && v.annulled.as_ref().is_none_or(|a| &*a.rule != "annul.petit_sec"));
        checked += petit_first as usize;
        let mut unknown = under.clone();
        if let Event::Deal { packets, .. } = &mut unknown.events[0] {
            packets.clear();
        }
        let e = replay(fft, &unknown).unwrap_err();
        assert!(e.message.contains("order of the deal"), "{}", e.message);
    }
    assert!(checked > 5, "{checked}");

    // Three players: 4 by 4 (FFT), 3 by 3 under seed 003's option.
    let three = ruleset("fft-3p");
    let by4 = random_game(three, 3, &BTreeMap::new(), &mut rng).unwrap();
    let by3 = random_game(three, 3, &opts(&[("packets", serde_json::json!(3))]), &mut rng).unwrap();
    let sizes = |g: &tarot_engine::GameRecord| match &g.events[0] {
        Event::Deal { packets, .. } => packets.iter().filter(|p| p.to.is_some()).map(|p| p.cards.len()).collect::<std::collections::BTreeSet<_>>(),
        _ => unreachable!(),
    };
    assert_eq!(sizes(&by4), [4].into());
    assert_eq!(sizes(&by3), [3].into());
    let mut wrong = by3.clone();
    wrong.options.clear();
    assert_eq!(rule(three, &wrong).as_deref(), Some("deal.packets"));

    // Marolles: fives (four rounds of five, then one each and four to the dealer), or threes; the cut
    // card is dealt last, to the dealer.
    let m = ruleset("marolles-1637");
    let fives = random_game(m, 3, &BTreeMap::new(), &mut rng).unwrap();
    assert_eq!(sizes(&fives), [1, 4, 5].into());
    let threes = random_game(m, 3, &opts(&[("deal", serde_json::json!("threes"))]), &mut rng).unwrap();
    assert_eq!(sizes(&threes), [3].into());
    let mut wrong = threes.clone();
    wrong.options.clear();
    assert_eq!(rule(m, &wrong).as_deref(), Some("deal.packets"));
    let cut_not_last = with_packets(&fives, &|p| {
        let last = p.last_mut().unwrap();
        last.cards.rotate_right(1);
    });
    assert_eq!(rule(m, &cut_not_last).as_deref(), Some("deal.cut"));
    let message = replay(m, &cut_not_last).unwrap().violation.unwrap().message;
    assert!(message.contains("is dealt last, to the dealer; the last card dealt is "), "{message}");
}

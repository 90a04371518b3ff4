//! The games arranged to show the verdict bugs fixed (`make_fixtures regressions`): deals steered card
//! by card, each checked by the interpreter as the simulator does.

use super::*;
use tarot_engine::ir::Ruleset;
use tarot_engine::testing::{Game, Stage};
use tarot_engine::Setup;
use tarot_engine::Text;

/// How a steered game picks its moves: each chooser sees the game and the legal choices and may pick
/// one (`None`: chosen at random among the legal ones). Discards are random.
pub(super) struct Steer<'a> {
    bid: &'a dyn Fn(&Game, u8, &[String]) -> Option<String>,
    call: &'a dyn Fn(&Game, u8, &[String]) -> Option<String>,
    play: &'a dyn Fn(&Game, u8, CardSet) -> Option<Card>,
}

/// Plays `deal` out at the table `players` (`dealer` dealing) with the moves `steer` picks, checking
/// each with the interpreter, as the simulator does. `None` when a move is refused or the deal is
/// annulled.
pub(super) fn steered(
    rules: &Ruleset,
    players: &[&str],
    dealer: usize,
    deal: Event,
    options: &BTreeMap<String, serde_json::Value>,
    steer: &Steer,
    rng: &mut ChaCha8Rng,
) -> Option<GameRecord> {
    use rand::seq::SliceRandom;
    let names: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let setup = Setup::new(rules, names.len(), options).ok()?;
    let mut game = Game::new(&setup, &names, dealer as u8);
    let mut events = vec![];
    game.apply(0, &deal).ok()?;
    events.push(deal);
    while let Some(next) = game.next() {
        let p = names.iter().position(|n| **n == *next.player)? as u8;
        let who: Text = next.player.as_ref().into();
        let e = match game.stage {
            Stage::Bidding => Event::Bid { player: who, bid: (steer.bid)(&game, p, &next.legal).or_else(|| next.legal.choose(rng).cloned())?.as_str().into() },
            Stage::Call => Event::Call { player: who, card: (steer.call)(&game, p, &next.legal).or_else(|| next.legal.choose(rng).cloned())?.as_str().into() },
            Stage::Discard => {
                let mut pool: Vec<Card> = game.discardable(p).iter().collect();
                pool.shuffle(rng);
                Event::Discard { player: who, cards: pool.iter().take(next.count.unwrap_or(0)).map(|c| c.code()).collect() }
            }
            _ => {
                let legal = game.legal(p);
                let c = (steer.play)(&game, p, legal).or_else(|| legal.nth(rand::Rng::gen_range(rng, 0..legal.len())))?;
                Event::Play { player: who, card: c.code() }
            }
        };
        game.apply(events.len(), &e).ok()?;
        events.push(e);
    }
    Some(GameRecord {
        ruleset: rules.id.clone(),
        options: options.clone(),
        players: names.clone(),
        dealer: names[dealer].clone(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: None,
        events,
    })
}

/// A card's strength for a steered player: trumps above suits, a suit's cards by rank, the Fool
/// lowest.
pub(super) fn strength(c: Card) -> u8 {
    match c.kind() {
        tarot_engine::Kind::Trump(n) => 100 + n,
        tarot_engine::Kind::Fool => 0,
        tarot_engine::Kind::Suited(_, r) => r,
    }
}

pub(super) fn highest(set: CardSet) -> Option<Card> {
    set.iter().max_by_key(|c| strength(*c))
}

pub(super) fn lowest(set: CardSet) -> Option<Card> {
    set.iter().min_by_key(|c| strength(*c))
}

/// A deal of these hands (by player) and dog, with no recorded order.
pub(super) fn deal_of(hands: &[(&str, CardSet)], dog: CardSet) -> Event {
    let hands = hands.iter().map(|(p, h)| (Text::from(*p), h.iter().map(|c| c.code()).collect())).collect();
    Event::Deal { hands, dog: dog.iter().map(|c| c.code()).collect(), cut: None, piles: BTreeMap::new(), packets: vec![] }
}

/// Deals `rest` at random: `sizes[i]` cards to each hand after those already fixed, the remainder to
/// the dog.
pub(super) fn deal_rest(rest: CardSet, sizes: &[usize], rng: &mut ChaCha8Rng) -> (Vec<CardSet>, CardSet) {
    use rand::seq::SliceRandom;
    let mut cards: Vec<Card> = rest.iter().collect();
    cards.shuffle(rng);
    let mut at = 0;
    let hands = sizes
        .iter()
        .map(|&k| {
            let h = cards[at..at + k].iter().copied().collect();
            at += k;
            h
        })
        .collect();
    (hands, cards[at..].iter().copied().collect())
}

/// Games arranged to show the verdict bugs of issues 14 and 26, each fixed in the engine or the rules: every
/// one replays differently without its fix (the snapshots of `tests/it/fixtures.rs` pin the verdicts).
pub(super) fn regressions(registry: &Registry, root: &Path) {
    let none = BTreeMap::new();
    // fft-5p, garde contre: the called partner is the first player who is not the taker; the dog,
    // holding an oudler, counts for the defence all the same.
    let rules = registry.get("fft-5p").expect("fft-5p");
    let players = ["Ann", "Bob", "Cid", "Dan", "Eve"];
    let mut rng = ChaCha8Rng::seed_from_u64(141);
    let mut found = None;
    for _ in 0..2000 {
        let (hands, dog) = deal_rest(rules.pack.cards, &[15; 5], &mut rng);
        if dog.and(CardSet::single(Card::trump(21)).or(CardSet::single(tarot_engine::FOOL))).is_empty() {
            continue;
        }
        let named: Vec<(&str, CardSet)> = players.iter().copied().zip(hands.iter().copied()).collect();
        let ann = hands[0];
        let steer = Steer {
            bid: &|_, p, legal| Some(if p == 2 && legal.iter().any(|b| b == "garde-contre") { "garde-contre".into() } else { "pass".into() }),
            call: &|_, _, legal| legal.iter().find(|c| Card::parse(c).is_some_and(|c| ann.contains(c))).cloned(),
            play: &|_, _, _| None,
        };
        let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &none, &steer, &mut rng) else { continue };
        let v = replay(rules, &game).expect("replayable");
        if v.status == Status::Valid && v.outcome.as_ref().and_then(|o| o.partner.as_deref()) == Some("Ann") {
            found = Some(game);
            break;
        }
    }
    let mut game = found.expect("a garde contre whose partner is Ann");
    game.description = Some(
        "Garde contre at five: Cid takes and calls a king of Ann's, the first player who is not the taker; the dog (with an oudler) counts for the defence (FFT \"Le Chien et l'Ecart\"), not for Ann (issue 14, item 1)"
            .into(),
    );
    write(&root.join("fft-5p/valid/garde-contre-dog-to-defence.json"), &game);
    defence_slams(registry, root);
    after_annulment(root);
    stray_imperial(registry, root);
    jack_call(registry, root);
    misere_declared(registry, root);
    fool_shut_out(registry, root, "basic-partners", 4, "fool-kept-by-the-side.json", true);
    fool_shut_out(registry, root, "basic", 3, "fool-shut-out.json", false);
    too_many_trumps(registry, root);
    poignee_timings(registry, root);
    poignee_with_the_discard(registry, root);
    marolles_declarations(registry, root);
}

pub(super) fn set_of(codes: &str) -> CardSet {
    codes.split_whitespace().map(|c| Card::parse(c).unwrap_or_else(|| panic!("{c}"))).collect()
}

/// fft-4p: with the dog, Bob holds the four kings, the three oudlers, twelve other trumps and five cards
/// that may go (2H 3H 4C 7D QS): taking a garde, he must lay away one trump with them. He lays away four
/// (T12 T14 T17 T20) and keeps 2H 7D QS. « On n'Ecarte des Atouts que si cela s'avère indispensable »:
/// only as many as must go (issue 26, item 1). The record stops at the discard.
pub(super) fn too_many_trumps(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let bob = set_of("KS KH KD KC T1 T21 EX 2H 3H 4C 7D QS T3 T5 T6 T8 T9 T10 T11 T12 T14 T15 T17 T20");
    let dog = set_of("T3 T5 T6 T8 3H 4C");
    let mut rng = ChaCha8Rng::seed_from_u64(261);
    let (hands, _) = deal_rest(rules.pack.cards.minus(bob), &[18; 3], &mut rng);
    let named = [("Ann", hands[0]), ("Bob", bob.minus(dog)), ("Cid", hands[1]), ("Dan", hands[2])];
    let names: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let none = BTreeMap::new();
    let setup = Setup::new(rules, 4, &none).expect("setup");
    let mut game = Game::new(&setup, &names, 0);
    let mut events = vec![deal_of(&named, dog)];
    assert!(game.apply(0, &events[0]).is_ok(), "the deal");
    while game.stage == Stage::Bidding {
        let next = game.next().expect("a bid");
        let bid = if &*next.player == "Bob" { "garde" } else { "pass" };
        let e = Event::Bid { player: next.player.as_ref().into(), bid: bid.into() };
        assert!(game.apply(events.len(), &e).is_ok(), "a bid");
        events.push(e);
    }
    let bad = Event::Discard { player: "Bob".into(), cards: ["3H", "4C", "T12", "T14", "T17", "T20"].iter().map(|c| Text::from(*c)).collect() };
    events.push(bad);
    let game = GameRecord {
        ruleset: rules.id.clone(),
        options: none.clone(),
        players: names.clone(),
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: Some(
            "Bob takes a garde and, with the dog, holds five cards that may go besides kings, oudlers and trumps: one trump must go with them. He lays away four (T12 T14 T17 T20) and keeps 2H 7D QS (FFT \"Le Chien et l'Ecart\": « On n'Ecarte des Atouts que si cela s'avère indispensable »; issue 26, item 1)".into(),
        ),
        events,
    };
    let v = replay(rules, &game).expect("replayable");
    assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("discard.unless-unavoidable"));
    write(&root.join("fft-4p/invalid/discard.unless-unavoidable--too-many-trumps.json"), &game);
}

/// fft-4p: Bob takes a garde; Cid holds T2 to T11 and Bob T12 to T21, a simple poignée each. A poignée
/// is shown « juste avant de jouer sa première carte »: at the declarer's own turn in the first trick.
/// The same played game with a poignée declared at three wrong moments (a defender's before the taker's
/// discard, the taker's before his own discard, a defender's before the opening lead, which is not his)
/// and at the right one (Cid's, at his turn in the first trick) (issue 26, item 2).
pub(super) fn poignee_timings(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let (bob, cid) = (set_of("T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"), set_of("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11"));
    let none = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(262);
    let steer = Steer { bid: &|_, p, _| Some(if p == 1 { "garde".into() } else { "pass".into() }), call: &|_, _, _| None, play: &|_, _, _| None };
    let game = loop {
        let (hands, dog) = deal_rest(rules.pack.cards.minus(bob).minus(cid), &[18, 8, 8, 18], &mut rng);
        let named = [("Ann", hands[0]), ("Bob", hands[1].or(bob)), ("Cid", hands[2].or(cid)), ("Dan", hands[3])];
        if let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &none, &steer, &mut rng) {
            if replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
                break game;
            }
        }
    };
    let discard = game.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("Bob's discard");
    let first = game.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("the opening lead");
    let cids = game.events.iter().position(|e| matches!(e, Event::Play { player, .. } if player.as_str() == "Cid")).expect("Cid's first card");
    let poignee = |who: &str, shown: CardSet| Event::Declare { player: who.into(), declaration: "poignee".into(), cards: shown.iter().map(|c| c.code()).collect() };
    let cases = [
        ("invalid/declaration.poignee--defender-before-the-discard.json", discard, "Cid", cid, "Cid, a defender, shows his poignée before Bob has made his discard"),
        ("invalid/declaration.poignee--taker-before-his-discard.json", discard, "Bob", bob, "Bob, the taker, shows his poignée before making his discard"),
        ("invalid/declaration.poignee--before-the-opening-lead.json", first, "Cid", cid, "Cid shows his poignée after the discard, before the opening lead, which is not his"),
        ("valid/poignee-at-his-turn.json", cids, "Cid", cid, "Cid shows his poignée at his turn in the first trick, before his first card"),
    ];
    for (file, at, who, shown, what) in cases {
        let mut rec = game.clone();
        rec.events.insert(at, poignee(who, shown));
        rec.description = Some(format!(
            "{what}: a poignée is shown « juste avant de jouer sa première carte » (FFT \"La Poignée\"; seed 003: \"right before playing their first card\"), at the declarer's own turn in the first trick (issue 26, item 2)"
        ));
        let v = replay(rules, &rec).expect("replayable");
        let rule = file.strip_prefix("invalid/").map(|f| f.split_once("--").map_or(f, |(r, _)| r));
        assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), rule, "{file}");
        write(&root.join("fft-4p").join(file), &rec);
    }
}

/// fft-4p: with the dog, Bob holds the four kings, fifteen trumps (T7 to T21) and five cards that may
/// go. Taking a garde he must lay away one trump (T7) with the five; at his first card he shows his
/// fourteen trumps and the one laid away, a triple poignée: « Lorsque le preneur possède 4 Rois et 15
/// atouts, l'atout écarté doit être remontré avec la triple Poignée qui est alors comptabilisée » (FFT
/// "La Poignée"). Refused as showing a card he does not hold before the rule file said `from
/// hand-and-discard`.
pub(super) fn poignee_with_the_discard(registry: &Registry, root: &Path) {
    use rand::seq::IteratorRandom;
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let trumps = set_of("T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21");
    let bob = trumps.or(set_of("KS KH KD KC 2H 3H 4C 7D QS"));
    let dog = set_of("T9 T13 KD 3H 4C QS");
    let mut rng = ChaCha8Rng::seed_from_u64(264);
    let (hands, _) = deal_rest(rules.pack.cards.minus(bob), &[18; 3], &mut rng);
    let named = [("Ann", hands[0]), ("Bob", bob.minus(dog)), ("Cid", hands[1]), ("Dan", hands[2])];
    let names: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let none = BTreeMap::new();
    let setup = Setup::new(rules, 4, &none).expect("setup");
    let mut game = Game::new(&setup, &names, 0);
    let mut events = vec![deal_of(&named, dog)];
    assert!(game.apply(0, &events[0]).is_ok(), "the deal");
    let poignee = Event::Declare { player: "Bob".into(), declaration: "poignee".into(), cards: trumps.iter().map(|c| c.code()).collect() };
    let mut shown = false;
    while let Some(next) = game.next() {
        let who: Text = next.player.as_ref().into();
        let e = match game.stage {
            Stage::Bidding => Event::Bid { bid: if &*who == "Bob" { "garde" } else { "pass" }.into(), player: who },
            Stage::Discard => Event::Discard { player: who, cards: ["2H", "3H", "4C", "7D", "QS", "T7"].iter().map(|c| Text::from(*c)).collect() },
            _ if &*who == "Bob" && !shown => {
                shown = true;
                poignee.clone()
            }
            _ => {
                let p = names.iter().position(|n| **n == *who).expect("a player") as u8;
                Event::Play { player: who, card: game.legal(p).iter().choose(&mut rng).expect("a card").code() }
            }
        };
        assert!(game.apply(events.len(), &e).is_ok(), "{e:?}");
        events.push(e);
    }
    let game = GameRecord {
        ruleset: rules.id.clone(),
        options: none,
        players: names,
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: Some(
            "Bob takes a garde holding, with the dog, the four kings and fifteen trumps: he must lay away one (T7), and shows it with his fourteen others in a triple poignée at his first card (FFT \"La Poignée\": « Lorsque le preneur possède 4 Rois et 15 atouts, l'atout écarté doit être remontré avec la triple Poignée qui est alors comptabilisée »)".into(),
        ),
        events,
    };
    let v = replay(rules, &game).expect("replayable");
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    write(&root.join("fft-4p/valid/triple-poignee-with-the-trump-laid-away.json"), &game);
}

/// Marolles: every player discards, then « In turn, players may now declare ... cards they hold in their
/// hand » (seed 001). Cid deals, holding the four coin courts. Two games: Cid declares his Imperial
/// before the discards and then lays away a coin court; and two players' declarations made out of turn,
/// the later in turn first (issue 26, item 3).
pub(super) fn marolles_declarations(registry: &Registry, root: &Path) {
    let rules = registry.get("marolles-1637").expect("marolles-1637");
    let table: Vec<String> = ["Ann", "Bob", "Cid"].iter().map(|p| p.to_string()).collect();
    let coins = set_of("KD QD CD JD");
    let none = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(263);
    // Cid's Imperial before the discards, one of its cards then laid away by him; his hand holds no
    // other Imperial, so the show is the most he may declare.
    let early = loop {
        let (hands, _) = deal_rest(rules.pack.cards.minus(coins), &[21, 21, 20], &mut rng);
        let cid = hands[2].or(coins);
        let others = [set_of("KS QS CS JS"), set_of("KH QH CH JH"), set_of("KC QC CC JC"), set_of("QS QH QD QC"), set_of("CS CH CD CC"), set_of("JS JH JD JC")];
        if others.iter().any(|o| cid.and(*o).len() == 4) {
            continue;
        }
        let cut = cid.iter().next().expect("a card").code();
        let Event::Deal { hands, dog, piles, packets, .. } = deal_of(&[("Ann", hands[0]), ("Bob", hands[1]), ("Cid", cid)], CardSet::EMPTY) else { unreachable!() };
        let deal = Event::Deal { hands, dog, cut: Some(cut), piles, packets };
        let Ok(mut game) = tarot_engine::random_game_from(rules, &table, 2, deal, &none, &mut rng) else { continue };
        let lays_away = game
            .events
            .iter()
            .any(|e| matches!(e, Event::Discard { player, cards } if player.as_str() == "Cid" && cards.iter().any(|c| Card::parse(c).is_some_and(|c| coins.contains(c)))));
        if !lays_away || !replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
            continue;
        }
        let at = game.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("the discards");
        game.events.insert(at, Event::Declare { player: "Cid".into(), declaration: "imperials".into(), cards: coins.iter().map(|c| c.code()).collect() });
        break game;
    };
    let mut early = early;
    early.description = Some(
        "Cid, the dealer, declares an Imperial of the four coin courts before the discards, then lays away one of them: the declarations come once every discard is made (seed 001: \"The two non-dealers each discard one card and the dealer discards four ... In turn, players may now declare specific combinations of cards they hold in their hand\"; issue 26, item 3)".into(),
    );
    let v = replay(rules, &early).expect("replayable");
    assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("declaration.imperials"));
    write(&root.join("marolles-1637/invalid/declaration.imperials--before-the-discards.json"), &early);
    // Two players' declarations, the later in turn's moved before the earlier's.
    for seed in 0..2000 {
        let Ok(game) = random_game(rules, 3, &none, &mut rng) else { continue };
        let declares: Vec<(usize, &str)> =
            game.events.iter().enumerate().filter_map(|(i, e)| if let Event::Declare { player, .. } = e { Some((i, player.as_str())) } else { None }).collect();
        let Some(&(i, first)) = declares.first() else { continue };
        let Some(&(j, _)) = declares.iter().find(|(_, p)| *p != first) else { continue };
        let mut rec = game.clone();
        let moved = rec.events.remove(j);
        rec.events.insert(i, moved);
        let Ok(v) = replay(rules, &rec) else { continue };
        let Some(rule) = v.violation.map(|x| x.rule.to_string()).filter(|r| r.ends_with(".in-turn")) else { continue };
        rec.description = Some(format!(
            "Game {seed} of seed 263 of `make_fixtures`, with a declaration of a player later in turn moved before the first declaration of a player earlier in turn: declarations are made in turn from first hand (seed 001: \"In turn, players may now declare\"; issue 26, item 3)"
        ));
        write(&root.join("marolles-1637/invalid").join(format!("{rule}--later-player-first.json")), &rec);
        return;
    }
    panic!("no Marolles game with declarations by two players");
}

/// Basic Tarot's Fool (`shut_out = "to-winner"`): Cid holds it with the weakest cards and plays his
/// lowest card, the others their highest. With partners, Cid takes no trick but his partner Ann does:
/// "took no trick" is said of the side, which keeps the Fool. Alone, Cid takes no trick and gives the
/// Fool to the winner of its trick (issue 14, item 7; `tests/it/variants/fool.rs` replays this game where
/// the Fool is exchanged for an empty card too).
pub(super) fn fool_shut_out(registry: &Registry, root: &Path, id: &str, n: usize, file: &str, partner_wins: bool) {
    let rules = registry.get(id).expect("ruleset");
    let players = &["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"][..n];
    let none = BTreeMap::new();
    let setup = Setup::new(rules, n, &none).expect("setup");
    let fool = tarot_engine::FOOL;
    let numerals: CardSet = rules.pack.cards.iter().filter(|c| matches!(c.kind(), tarot_engine::Kind::Suited(_, r) if r <= 10)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(147);
    for _ in 0..3000 {
        // Cid: the Fool and numerals only; the rest dealt at random.
        let (mine, _) = deal_rest(numerals, &[setup.hand - 1], &mut rng);
        let cid = mine[0].or(CardSet::single(fool));
        let sizes: Vec<usize> = (0..n).filter(|&p| p != 2).map(|p| if p == 0 { setup.dealer_hand } else { setup.hand }).collect();
        let (others, dog) = deal_rest(rules.pack.cards.minus(cid), &sizes, &mut rng);
        let mut hands: Vec<(&str, CardSet)> = vec![];
        let mut rest = others.into_iter();
        for (p, name) in players.iter().enumerate() {
            hands.push((name, if p == 2 { cid } else { rest.next().expect("a hand") }));
        }
        let steer = Steer {
            bid: &|_, _, _| None,
            call: &|_, _, _| None,
            play: &|game, p, legal| {
                if p != 2 {
                    return highest(legal.minus(CardSet::single(fool))).or(Some(fool));
                }
                // Cid plays the Fool to the first trick he does not lead, otherwise his lowest card.
                if legal.contains(fool) && !game.current.is_empty() {
                    return Some(fool);
                }
                lowest(legal.minus(CardSet::single(fool))).or(Some(fool))
            },
        };
        let Some(mut game) = steered(rules, players, 0, deal_of(&hands, dog), &none, &steer, &mut rng) else { continue };
        let v = replay(rules, &game).expect("replayable");
        let won = |who: &str| v.tricks.iter().filter(|t| &*t.winner == who).count();
        let fool_trick = v.tricks.iter().find(|t| t.cards.contains(&fool)).expect("the Fool is played");
        if v.status != Status::Valid || won("Cid") > 0 || &*fool_trick.winner == "Cid" || (partner_wins && (won("Ann") == 0 || &*fool_trick.winner == "Ann")) {
            continue;
        }
        game.description = Some(if partner_wins {
            "Partners opposite: Cid takes no trick, his partner Ann does, so their side keeps the Fool (\"took no trick\" is said of the side; issue 14, item 7)".into()
        } else {
            format!("Cid takes no trick and gives the Fool to {}, who won the trick it was played to (issue 14, item 7)", fool_trick.winner)
        });
        write(&root.join(id).join("valid").join(file), &game);
        return;
    }
    panic!("no game of {id} where Cid takes no trick");
}

/// Marolles: Ann shows an Imperial as QS JD CD QD KD, the four coin courts and a Queen that completes
/// nothing. A declaration shows exactly the cards of the combinations it claims (issue 14, item 6).
pub(super) fn stray_imperial(registry: &Registry, root: &Path) {
    let rules = registry.get("marolles-1637").expect("marolles-1637");
    let players = ["Ann", "Bob", "Cid"];
    let mine: CardSet = ["QS", "JD", "CD", "QD", "KD"].iter().filter_map(|c| Card::parse(c)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(146);
    // Cid deals (24 cards, the cut card among them); Ann, first hand, holds the five cards.
    let (hands, _) = deal_rest(rules.pack.cards.minus(mine), &[16, 21, 24], &mut rng);
    let ann = hands[0].or(mine);
    let cut = hands[2].iter().next().expect("a card").code();
    let named = [("Ann", ann), ("Bob", hands[1]), ("Cid", hands[2])];
    let Event::Deal { hands, dog, piles, packets, .. } = deal_of(&named, CardSet::EMPTY) else { unreachable!() };
    let deal = Event::Deal { hands, dog, cut: Some(cut), piles, packets };
    let table: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    // Played until the discards keep Ann's five cards.
    let mut game = loop {
        let mut game = tarot_engine::random_game_from(rules, &table, 2, deal.clone(), &BTreeMap::new(), &mut rng).expect("a game");
        let at = game.events.iter().position(|e| matches!(e, Event::Play { .. } | Event::Declare { .. })).expect("play");
        game.events.truncate(at);
        game.events.push(Event::Declare { player: "Ann".into(), declaration: "imperials".into(), cards: ["QS", "JD", "CD", "QD", "KD"].iter().map(|c| Text::from(*c)).collect() });
        let v = replay(rules, &game).expect("replayable");
        if v.violation.is_some_and(|x| &*x.rule == "declaration.imperials.require.3") {
            break game;
        }
    };
    game.description = Some("Ann declares an Imperial showing QS JD CD QD KD: the four coin courts, and a Queen of swords that completes nothing (seed 001: \"All four courts of a suit or a set of four Queens, Cavaliers or Jacks\"; issue 14, item 6)".into());
    write(&root.join("marolles-1637/invalid/declaration.imperials.require.3.json"), &game);
}

/// fft-5p: Cid takes a garde holding the four kings, queens and cavaliers. At the FFT he calls a jack;
/// under seed 003's reading (option `jack_call = "alone"`) he calls nothing and plays alone, paid by
/// four (issue 14, item 8).
pub(super) fn jack_call(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-5p").expect("fft-5p");
    let players = ["Ann", "Bob", "Cid", "Dan", "Eve"];
    let courts: CardSet = ["K", "Q", "C"].iter().flat_map(|r| ["S", "H", "D", "C"].iter().filter_map(move |s| Card::parse(&format!("{r}{s}")))).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(148);
    for (option, file) in [("jack", "jack-call.json"), ("alone", "jack-call-alone.json")] {
        let options = BTreeMap::from([("jack_call".to_string(), serde_json::json!(option))]);
        let game = loop {
            let (mine, _) = deal_rest(rules.pack.cards.minus(courts).minus(CardSet::single(Card::trump(1))), &[3], &mut rng);
            let cid = courts.or(mine[0]);
            let (hands, dog) = deal_rest(rules.pack.cards.minus(cid), &[15; 4], &mut rng);
            let named = [("Ann", hands[0]), ("Bob", hands[1]), ("Cid", cid), ("Dan", hands[2]), ("Eve", hands[3])];
            let steer = Steer { bid: &|_, p, _| Some(if p == 2 { "garde".into() } else { "pass".into() }), call: &|_, _, _| None, play: &|_, _, _| None };
            if let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &options, &steer, &mut rng) {
                if replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
                    break game;
                }
            }
        };
        let mut game = game;
        game.description = Some(match option {
            "jack" => "Cid takes a garde holding the four kings, queens and cavaliers, and calls a jack (FFT \"LE JEU A 5 JOUEURS\"; issue 14, item 8)".into(),
            _ => "Cid takes a garde holding the four kings, queens and cavaliers: under seed 003's reading he calls nothing and plays alone (\"A taker with all kings, queens and knights must play alone\"; issue 14, item 8)".into(),
        });
        write(&root.join("fft-5p/valid").join(file), &game);
        if option == "alone" {
            // The same game with a call after the auction: there is none to make.
            let after_bids = game.events.iter().rposition(|e| matches!(e, Event::Bid { .. })).expect("bids") + 1;
            game.events.insert(after_bids, Event::Call { player: "Cid".into(), card: "KS".into() });
            game.description = Some(
                "Cid takes a garde holding the four kings, queens and cavaliers, and calls the king of spades: under seed 003's reading there is no call to make, he plays alone"
                    .into(),
            );
            write(&root.join("fft-5p/invalid/call.callable-levels.json"), &game);
        }
    }
}

/// fft-4p-misere: a game where a misère is declared and paid by every other player (its payment was
/// otherwise exercised only by simulated games).
pub(super) fn misere_declared(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p-misere").expect("fft-4p-misere");
    let mut rng = ChaCha8Rng::seed_from_u64(149);
    for seed in 0..5000 {
        let Ok(mut game) = random_game(rules, 4, &BTreeMap::new(), &mut rng) else { continue };
        let declared = game.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration == "misere"));
        if declared && replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
            game.description = Some(format!("A random legal game where a misère is declared, paid 10 by every other player: game {seed} of seed 149 of `make_fixtures`"));
            write(&root.join("fft-4p-misere/valid/misere.json"), &game);
            return;
        }
    }
    panic!("no misère in 5,000 random games");
}

/// An annulled deal is over: a record that goes on after it (bids after a petit sec, a card played
/// after everyone passed) cannot be replayed, as one that goes on after the last trick cannot.
pub(super) fn after_annulment(root: &Path) {
    let read = |path: PathBuf| -> GameRecord { serde_json::from_str(&std::fs::read_to_string(&path).expect("an annulled fixture")).expect("a record") };
    let mut rec = read(root.join("fft-4p/annulled/annul.petit_sec.json"));
    let first = &rec.players[(rec.players.iter().position(|p| *p == rec.dealer).expect("the dealer") + 1) % rec.players.len()];
    rec.events.push(Event::Bid { player: first.as_str().into(), bid: "garde".into() });
    rec.description = Some("A petit sec annuls the deal, and the record goes on with a bid (issue 14, item 5)".into());
    write(&root.join("fft-4p/malformed/bid-after-annulment.json"), &rec);
    let mut rec = read(root.join("fft-4p/annulled/bidding.all-pass.json"));
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { panic!("a deal first") };
    let first = rec.players[(rec.players.iter().position(|p| *p == rec.dealer).expect("the dealer") + 1) % rec.players.len()].clone();
    let card = hands[first.as_str()][0].clone();
    rec.events.push(Event::Play { player: first.as_str().into(), card });
    rec.description = Some("Every player passes, which annuls the deal, and the record goes on with a card played (issue 14, item 5)".into());
    write(&root.join("fft-4p/malformed/play-after-annulment.json"), &rec);
}

/// fft-4p: Bob takes a garde contre holding the Petit, the 2 of trumps and the four lowest cards of
/// each suit; the defence takes every trick. Two endings: a defender leads the Excuse to the last
/// trick after capturing the Petit in the trick before (no petit au bout for the defence: the Petit
/// did not win that trick), and a defender plays the Excuse, not leading, to the last trick (it wins
/// it and stays with the defence: a defence chelem).
pub(super) fn defence_slams(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let (t1, t2, fool) = (Card::trump(1), Card::trump(2), tarot_engine::FOOL);
    let low: CardSet = (0..4).flat_map(|s| (1..=4).map(move |r| Card::suited(s, r))).collect();
    let bob = low.or(CardSet::single(t1)).or(CardSet::single(t2));
    let none = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(143);
    let (mut led, mut played) = (None, None);
    for _ in 0..3000 {
        let (hands, dog) = deal_rest(rules.pack.cards.minus(bob), &[18; 3], &mut rng);
        let named = [("Ann", hands[0]), ("Bob", bob), ("Cid", hands[1]), ("Dan", hands[2])];
        let steer = Steer {
            bid: &|_, p, _| Some(if p == 1 { "garde-contre".into() } else { "pass".into() }),
            call: &|_, _, _| None,
            play: &|game, p, legal| {
                let taker = game.hands[1];
                if p == 1 {
                    // The taker keeps the Petit as long as he can and plays his lowest card.
                    let others = legal.minus(CardSet::single(t1));
                    return lowest(if others.is_empty() { legal } else { others });
                }
                // Defenders keep the Excuse to the end and play their strongest card; leading, they
                // draw the taker's trumps (the 2 first, the Petit in the trick before the last) and
                // otherwise lead a suit he still holds.
                let no_fool = legal.minus(CardSet::single(fool));
                if no_fool.is_empty() {
                    return Some(fool);
                }
                if game.current.is_empty() {
                    let trumps = no_fool.and(CardSet::trumps());
                    if taker.contains(t2) || (taker.len() == 2 && taker.contains(t1)) {
                        return highest(if trumps.is_empty() { no_fool } else { trumps });
                    }
                    let his: CardSet = (0..4u8).filter(|&s| !taker.and(CardSet::of_lane(s)).is_empty()).fold(CardSet::EMPTY, |a, s| a.or(CardSet::of_lane(s)));
                    let mine = no_fool.and(his);
                    return highest(if mine.is_empty() { no_fool } else { mine });
                }
                highest(no_fool)
            },
        };
        let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &none, &steer, &mut rng) else { continue };
        let v = replay(rules, &game).expect("replayable");
        if v.status != Status::Valid || v.tricks.len() != 18 || v.tricks.iter().any(|t| &*t.winner == "Bob") {
            continue;
        }
        let (penult, last) = (&v.tricks[16], &v.tricks[17]);
        if last.cards[0] == fool && penult.cards.contains(&t1) && led.is_none() {
            led = Some(game);
        } else if last.cards[0] != fool && last.cards.contains(&fool) && played.is_none() {
            played = Some(game);
        }
        if led.is_some() && played.is_some() {
            break;
        }
    }
    let mut game = led.expect("a defence chelem with the Excuse led to the last trick and the Petit captured in the trick before");
    game.description = Some(
        "A defence chelem: the defence captures Bob's Petit in the 17th trick and leads the Excuse to the last. The Petit did not win the trick before the last, so there is no petit au bout (seed 000: \"if you won with the 1 of trumps in the second to last trick\"; seed 003: \"(and won the trick)\"; issue 14, item 4)"
            .into(),
    );
    write(&root.join("fft-4p/valid/excuse-chelem-petit-captured.json"), &game);
    let mut game = played.expect("a defence chelem with the Excuse played, not led, to the last trick");
    game.description = Some(
        "The defence takes the first 17 tricks and a defender plays the Excuse, not leading, to the last: it wins that trick and stays with the defence, a defence chelem (FFT: « l'Excuse ne doit pas être jouée à la dernière levée, sauf en cas de Chelem »; seed 003: \"it never changes sides, unless played to the last trick and the side playing it has not won every trick\"; issue 14, item 3)"
            .into(),
    );
    write(&root.join("fft-4p/valid/excuse-played-last-by-slam-side.json"), &game);
}

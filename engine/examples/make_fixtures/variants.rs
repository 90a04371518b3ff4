//! The games derived from a simulated one: stopped in progress, arranged to annul, and broken by hand
//! (the mutations that break the bidding, discard and declaration rules; the malformed records).

use super::*;
use tarot_engine::ir::{Ruleset, When};
use tarot_engine::{Packet, Text};

/// The same game stopped after the deal, and stopped in the middle of a trick: the verdict says whose
/// turn it is and what they may do.
pub(super) fn in_progress(dir: &Path, rec: &GameRecord, origin: &str) {
    let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    let mut cut = rec.clone();
    cut.events.truncate(1);
    cut.description = Some(format!("Only the deal of a {origin}: the game goes on with the first move"));
    write(&dir.join("in_progress").join("after-deal.json"), &cut);
    let mut cut = rec.clone();
    let n = seats(rec).len();
    cut.events.truncate(plays[4 * n + 2]);
    cut.description = Some(format!("A {origin}, stopped in the middle of the fifth trick"));
    write(&dir.join("in_progress").join("mid-trick.json"), &cut);
}

/// A random deal whose order puts the Petit in a player's first packet, under the option that makes
/// that cancel the deal (seed 000's "curious rule"), where the ruleset has it.
pub(super) fn petit_first_packet(rules: &Ruleset, rec: &GameRecord) -> Option<GameRecord> {
    rules.annulments.iter().find(|a| a.name == "petit_first_packet")?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let options = BTreeMap::from([("petit_first_packet".to_string(), serde_json::json!("cancels"))]);
    for _ in 0..200 {
        let mut game = random_game(rules, rec.players.len(), &options, &mut rng).ok()?;
        let verdict = replay(rules, &game).ok()?;
        if verdict.annulled.as_ref().is_some_and(|a| &*a.rule == "annul.petit_first_packet") {
            game.description =
                Some("A deal whose order gives a player the Petit in his first packet, under seed 000's rule (option petit_first_packet = cancels): the hand is cancelled".into());
            return Some(game);
        }
    }
    None
}

/// The same deal, where every player passes.
pub(super) fn all_pass(rec: &GameRecord) -> Option<GameRecord> {
    let mut out = rec.clone();
    out.events = rec.events.iter().take_while(|e| matches!(e, Event::Deal { .. } | Event::Bid { .. })).cloned().collect();
    if out.events.len() < 2 {
        return None;
    }
    for e in out.events.iter_mut() {
        if let Event::Bid { bid, .. } = e {
            *bid = "pass".into();
        }
    }
    out.description = Some("The deal of a random game of `make_fixtures` where every player passes".into());
    Some(out)
}

/// The deal of a game rearranged so that the first player's only trump is the Petit and he has no
/// Fool: the rules that annul such a deal (a petit sec) must do so.
pub(super) fn petit_sec(rules: &Ruleset, rec: &GameRecord) -> Option<GameRecord> {
    if !rules.annulments.iter().any(|a| a.name == "petit_sec") {
        return None;
    }
    lone_petit(rec)
}

/// Where the Petit alone is untouchable (seed 003's Petit imprenable): a game played out from such a
/// deal, where the Petit falls to a trick the other side takes and goes back to its owner.
pub(super) fn untouchable(rules: &Ruleset, rec: &GameRecord) -> Option<GameRecord> {
    // The deal is arranged for an untouchable Petit; another card would need another arrangement.
    rules.untouchable.as_ref().filter(|u| u.card == Card::trump(1))?;
    let arranged = lone_petit(rec)?;
    let dealer = rec.players.iter().position(|p| *p == rec.dealer)?;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..200 {
        let mut game = tarot_engine::random_game_from(rules, &rec.players, dealer, arranged.events[0].clone(), &BTreeMap::new(), &mut rng).ok()?;
        let v = replay(rules, &game).ok()?;
        if v.status == Status::Valid && v.notes.iter().any(|n| n.contains("goes back to")) {
            game.description = Some(format!("A deal where the first player's only trump is the Petit, played out at random: {}", v.notes.join("; ")));
            return Some(game);
        }
    }
    None
}

/// The deal of a game rearranged so that the first player's only trump is the Petit, without the Fool.
pub(super) fn lone_petit(rec: &GameRecord) -> Option<GameRecord> {
    let Event::Deal { hands, dog, cut, piles, .. } = &rec.events[0] else { return None };
    let mut hands = hands.clone();
    let seats = seats(rec);
    let first = seats[0].as_str();
    let petit = Card::trump(1).code();
    let fool = tarot_engine::FOOL.code();
    // Give the first player the Petit, and swap every other trump (and the Fool) he holds for a plain
    // card of another player's.
    for other in seats.iter().skip(1).map(String::as_str) {
        if let Some(i) = hands[other].iter().position(|c| *c == petit) {
            let j = hands[first].iter().position(|c| !c.starts_with('T') && *c != fool)?;
            let mine = hands[first][j].clone();
            hands.get_mut(other)?[i] = mine;
            hands.get_mut(first)?[j] = petit.clone();
        }
    }
    if !hands[first].contains(&petit) {
        return None;
    }
    for other in seats.iter().skip(1).map(String::as_str) {
        while let Some(i) = hands[first].iter().position(|c| (c.starts_with('T') && *c != petit) || *c == fool) {
            let Some(j) = hands[other].iter().position(|c| !c.starts_with('T') && *c != fool) else { break };
            let (a, b) = (hands[first][i].clone(), hands[other][j].clone());
            hands.get_mut(first)?[i] = b;
            hands.get_mut(other)?[j] = a;
        }
    }
    let mut out = rec.clone();
    // Rearranged hands no longer follow the recorded order of the deal, so it is left out.
    out.events = vec![Event::Deal { hands, dog: dog.clone(), cut: cut.clone(), piles: piles.clone(), packets: vec![] }];
    out.description = Some("A deal where the first player's only trump is the Petit and he has no Excuse (a petit sec), rearranged from a random deal of `make_fixtures`".into());
    Some(out)
}

pub(super) fn record_invalid(rules: &Ruleset, found: &mut BTreeMap<String, (GameRecord, String)>, rec: GameRecord, why: String) {
    if let Ok(v) = replay(rules, &rec) {
        if let Some(violation) = v.violation {
            found.entry(violation.rule.to_string()).or_insert((rec, why));
        }
    }
}

/// Hand-made ways to break the bidding, discard and declaration rules, each applied to a legal game.
pub(super) fn mutations(rules: &Ruleset, rec: &GameRecord) -> Vec<(GameRecord, String)> {
    let mut out = vec![];
    // The order of the deal: two players' packets swapped, a dog card dealt first, two dog cards
    // dealt together.
    if let Event::Deal { hands, dog, cut, piles, packets } = &rec.events[0] {
        let deal = |packets: Vec<tarot_engine::Packet>| {
            let mut r = rec.clone();
            r.events[0] = Event::Deal { hands: hands.clone(), dog: dog.clone(), cut: cut.clone(), piles: piles.clone(), packets };
            r
        };
        let players: Vec<usize> = (0..packets.len()).filter(|&i| packets[i].to.is_some()).collect();
        if let Some(w) = players.windows(2).find(|w| packets[w[0]].to != packets[w[1]].to && packets[w[0]].cards.len() == packets[w[1]].cards.len()) {
            let mut p = packets.clone();
            let (a, b) = (p[w[0]].to.clone(), p[w[1]].to.clone());
            // Swap who receives them, and the cards too, so that the hands stay as dealt.
            let (ca, cb) = (p[w[0]].cards.clone(), p[w[1]].cards.clone());
            p[w[0]] = tarot_engine::Packet { to: b, cards: cb };
            p[w[1]] = tarot_engine::Packet { to: a, cards: ca };
            out.push((deal(p), "event 0: two players' packets dealt in the wrong order".to_string()));
        }
        let dogs: Vec<usize> = (0..packets.len()).filter(|&i| packets[i].to.is_none()).collect();
        if let Some(&d) = dogs.first() {
            let mut p = packets.clone();
            let first = p.remove(d);
            p.insert(0, first);
            out.push((deal(p), "event 0: the first card of the pack dealt to the dog".to_string()));
        }
        if dogs.len() >= 2 {
            let mut p = packets.clone();
            let second = p.remove(dogs[1]);
            p[dogs[0]].cards.extend(second.cards);
            out.push((deal(p), "event 0: two cards dealt to the dog together".to_string()));
        }
    }
    let bids: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Bid { .. })).map(|(i, _)| i).collect();
    if bids.len() >= 2 {
        let mut r = rec.clone();
        r.events.swap(bids[0], bids[1]);
        out.push((r, format!("events {} and {} (bids) swapped", bids[0], bids[1])));
        // A bid that does not outbid: the last bidder repeats the best bid so far.
        let best = bids.iter().filter_map(|&i| match &rec.events[i] {
            Event::Bid { bid, .. } if bid != "pass" => Some((i, bid.clone())),
            _ => None,
        });
        if let Some((i, bid)) = best.clone().next() {
            if let Some(&j) = bids.iter().find(|&&j| j > i) {
                let mut r = rec.clone();
                if let Event::Bid { player, .. } = &rec.events[j] {
                    r.events[j] = Event::Bid { player: player.clone(), bid: bid.clone() };
                    out.push((r, format!("event {j}: {player} bids {bid}, the bid already made")));
                }
            }
        }
    }
    // A call of a card the taker may not call: a queen while he does not hold the four kings.
    for (i, e) in rec.events.iter().enumerate() {
        let Event::Call { player, card } = e else { continue };
        if let Some(level) = rules.call.as_ref().and_then(|c| c.levels.get(1)) {
            if let Some(q) = level.iter().find(|q| q.code() != *card) {
                let mut r = rec.clone();
                r.events[i] = Event::Call { player: player.clone(), card: q.code() };
                out.push((r, format!("event {i}: {player} calls {q}")));
            }
        }
    }
    for (i, e) in rec.events.iter().enumerate() {
        let Event::Discard { player, cards } = e else { continue };
        let held = cards_of(rec, player).or(match &rec.events[0] {
            Event::Deal { dog, .. } => dog.iter().filter_map(|c| Card::parse(c)).collect(),
            _ => CardSet::EMPTY,
        });
        let kept = held.minus(cards.iter().filter_map(|c| Card::parse(c)).collect());
        let d = rules.discard.as_ref();
        let mut classes: Vec<(String, CardSet)> = d.map(|d| d.forbid.iter().map(|f| (f.label.clone(), f.cards)).collect()).unwrap_or_default();
        if let Some(u) = d.and_then(|d| d.unless_unavoidable.as_ref()) {
            classes.push((u.label.clone(), u.cards));
        }
        if let Some((k, _, _)) = d.and_then(|d| d.penalize.as_ref()) {
            classes.push((k.label.clone(), k.cards));
        }
        for (label, class) in classes {
            if let Some(c) = kept.and(class).iter().next() {
                let mut r = rec.clone();
                let mut new = cards.clone();
                new[0] = c.code();
                r.events[i] = Event::Discard { player: player.clone(), cards: new };
                out.push((r, format!("event {i}: {player} discards {c} ({label})")));
            }
        }
        let mut r = rec.clone();
        r.events[i] = Event::Discard { player: player.clone(), cards: cards[1..].to_vec() };
        out.push((r, format!("event {i}: {player} discards one card too few")));
    }
    // Declarations: shows that break each requirement, and a declaration by the wrong player. Made
    // before the first card, or one made at the declarer's first card (`when first-play`) before his.
    let first_play = rec.events.iter().position(|e| matches!(e, Event::Play { .. }));
    if let Some(first) = first_play {
        for d in &rules.declarations {
            for p in &rec.players {
                let at = match d.when {
                    When::FirstPlay => rec.events.iter().position(|e| matches!(e, Event::Play { player, .. } if player.as_str() == p.as_str())).unwrap_or(first),
                    _ => first,
                };
                let hand = cards_of(rec, p).and(d.shows);
                for size in [hand.len(), hand.len().saturating_sub(1), 3, 11] {
                    if size > hand.len() {
                        continue;
                    }
                    let shown = hand.iter().take(size).map(|c| c.code()).collect();
                    let mut r = rec.clone();
                    r.events.insert(at, Event::Declare { player: p.as_str().into(), declaration: d.name.as_str().into(), cards: shown });
                    let cards = if size == 1 { "1 card".to_string() } else { format!("{size} cards") };
                    out.push((r, format!("event {at}: {p} declares “{}”, showing {cards}", d.label)));
                }
            }
        }
        let at = first;
        // A play out of turn: the second play of the game moved before the first.
        let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).take(2).collect();
        if plays.len() == 2 {
            let mut r = rec.clone();
            r.events.swap(plays[0], plays[1]);
            out.push((r, format!("events {} and {} (the first two plays) swapped", plays[0], plays[1])));
        }
        // A card the player does not hold.
        if let Event::Play { player, .. } = &rec.events[at] {
            let other = rec.players.iter().find(|q| q.as_str() != player.as_str()).expect("two players");
            if let Some(c) = cards_of(rec, other).iter().next() {
                let mut r = rec.clone();
                r.events[at] = Event::Play { player: player.clone(), card: c.code() };
                out.push((r, format!("event {at}: {player} plays {c}, a card of {other}'s")));
            }
        }
    }
    out
}

/// The players dealt a hand, in the record's order: all of them, but the dealer where he sits out.
pub(super) fn seats(rec: &GameRecord) -> Vec<String> {
    let Event::Deal { hands, .. } = &rec.events[0] else { return rec.players.clone() };
    rec.players.iter().filter(|p| hands.contains_key(p.as_str())).cloned().collect()
}

/// Records that cannot be replayed at all, each with what is wrong.
pub(super) fn malformed(id: &str, rec: &GameRecord) -> Vec<(&'static str, GameRecord)> {
    let mut out = vec![];
    let Event::Deal { hands, dog, cut, piles, packets } = &rec.events[0] else { return out };
    let seats = seats(rec);
    let first = seats[0].clone();
    type Hands = BTreeMap<Text, Vec<Text>>;
    let mut with = |name: &'static str, what: &str, f: &dyn Fn(&mut Hands, &mut GameRecord)| {
        let mut r = rec.clone();
        let mut h = hands.clone();
        f(&mut h, &mut r);
        if matches!(r.events[0], Event::Deal { .. }) {
            // A changed hand no longer follows the recorded order of the deal: leave the order out, so
            // that the record shows one defect.
            let packets = if h == *hands { packets.clone() } else { vec![] };
            r.events[0] = Event::Deal { hands: h, dog: dog.clone(), cut: cut.clone(), piles: piles.clone(), packets };
        }
        r.description = Some(format!("Malformed {id} record: {what}"));
        out.push((name, r));
    };
    with("unknown-card", "a hand holds the unknown card code 15X", &|h, _| h.get_mut(first.as_str()).expect("hand")[0] = "15X".into());
    with("card-twice", "a card is dealt to two players", &|h, _| {
        let c = h[seats[1].as_str()][0].clone();
        h.get_mut(seats[0].as_str()).expect("hand")[0] = c;
    });
    with("wrong-hand-size", "a hand is one card short", &|h, _| {
        h.get_mut(first.as_str()).expect("hand").pop();
    });
    with("unknown-player", "a play by a player who is not at the table", &|_, r| {
        if let Some(i) = r.events.iter().position(|e| matches!(e, Event::Play { .. })) {
            if let Event::Play { card, .. } = r.events[i].clone() {
                r.events[i] = Event::Play { player: "Zoe".into(), card };
            }
        }
    });
    if !packets.is_empty() {
        let mut with_packets = |name: &'static str, what: &str, f: &dyn Fn(&mut Vec<Packet>)| {
            let mut r = rec.clone();
            if let Event::Deal { packets, .. } = &mut r.events[0] {
                f(packets);
            }
            r.description = Some(format!("Malformed {id} record: {what}"));
            out.push((name, r));
        };
        // The first card of the first packet dealt again in place of the second packet's first.
        with_packets("packets-card-twice", "the order of the deal gives a card twice and leaves one out", &|p| p[1].cards[0] = p[0].cards[0].clone());
        // The first packet and the next one to another player trade their first cards.
        with_packets("packets-disagree", "the order of the deal gives two players each a card of the other's hand", &|p| {
            let j = (1..p.len()).find(|&j| p[j].to.is_some() && p[j].to != p[0].to).expect("packets to two players");
            let (a, b) = (p[0].cards[0].clone(), p[j].cards[0].clone());
            (p[0].cards[0], p[j].cards[0]) = (b, a);
        });
    }
    out
}

//! Rebuilding the deal a TarotClub log leaves out (the dealer, who played each card, the hands, the
//! taker's discard) and the record made of it, replayed under its ruleset.

use super::*;

// ---------------------------------------------------------------------------------------------
// Rules of play
// ---------------------------------------------------------------------------------------------

/// The first card that is not the Excuse sets what must be followed (a led Excuse sets nothing).
pub(super) fn card_led(cards: &[Card]) -> Option<Card> {
    cards.iter().copied().find(|c| *c != Card::Excuse)
}

/// Position (0..4, from the leader) of the card that wins the trick: the highest trump, else the
/// highest card of the suit led. The Excuse never wins here; its one exception (led to the last
/// trick by a side that won all the others) is left to `attribute_plays`.
pub(super) fn trick_winner(cards: &[Card; 4]) -> usize {
    let mut best = 0;
    let mut best_strength = 0;
    let led_suit = match card_led(cards) {
        Some(Card::Suited { suit, .. }) => Some(suit),
        _ => None,
    };
    for (position, card) in cards.iter().enumerate() {
        // Trumps beat every suited card, so give them strengths above any rank.
        let strength = match *card {
            Card::Trump(n) => 100 + n as u32,
            Card::Suited { suit, rank } if Some(suit) == led_suit => rank as u32,
            _ => 0,
        };
        if strength > best_strength {
            best = position;
            best_strength = strength;
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// Rebuilding the deal
// ---------------------------------------------------------------------------------------------

/// One card played: in which trick (0-based), by whom.
pub(super) struct Play {
    trick: usize,
    seat: usize,
    card: Card,
}

/// What the deal looked like before play, as far as it can be rebuilt.
pub(super) struct Deal {
    /// Dealt hands, indexed by seat.
    hands: [Vec<Card>; 4],
    dog: Vec<Card>,
    /// The taker's discard, in a prise or garde only.
    discard: Option<Vec<Card>>,
}

pub(super) fn build_record(log: &DealLog, label: &str, inferred: &mut Vec<String>) -> Result<Value, String> {
    let dealer = infer_dealer(log, inferred)?;
    let unplayed = check_each_card_played_once(log)?;
    let (plays, leaders, winners) = attribute_plays(log);
    inferred.push(format!(
        "Each trick after the first was led by the winner of the trick before; the winners \
         were: {}.",
        winners.iter().enumerate().map(|(t, w)| format!("{} {}", t + 1, SEATS[*w])).collect::<Vec<_>>().join(", ")
    ));
    let deal = rebuild_deal(log, &plays, unplayed, inferred)?;
    let handles = find_handle_owners(log, &plays, inferred)?;

    let taker_name = SEATS[log.taker];
    let mut events = Vec::new();

    let mut hands_json = Map::new();
    for (seat, hand) in deal.hands.iter().enumerate() {
        hands_json.insert(SEATS[seat].to_string(), json!(codes(&sorted(hand.clone()))));
    }
    events.push(json!({"type": "deal", "hands": hands_json, "dog": codes(&deal.dog)}));

    // The log keeps only the final contract: the taker bid it and everyone else passed.
    let mut bidder = next(dealer);
    for _ in 0..4 {
        let bid = if bidder == log.taker { log.contract.bid() } else { "pass" };
        events.push(json!({"type": "bid", "player": SEATS[bidder], "bid": bid}));
        bidder = next(bidder);
    }
    inferred.push(format!("The log records no bidding: {taker_name} bid {} and the other players passed.", log.contract.bid()));

    if let Some(discard) = &deal.discard {
        events.push(json!({"type": "discard", "player": taker_name, "cards": codes(discard)}));
    }
    if log.slam {
        events.push(json!({
            "type": "declare", "player": taker_name, "declaration": "chelem", "cards": []
        }));
    }

    let mut has_played = [false; 4];
    for play in &plays {
        // A poignée is shown just before its owner's first card.
        if !std::mem::replace(&mut has_played[play.seat], true) {
            for (owner, cards) in &handles {
                if *owner == play.seat {
                    events.push(json!({
                        "type": "declare",
                        "player": SEATS[play.seat],
                        "declaration": "poignee",
                        "cards": codes(cards)
                    }));
                }
            }
        }
        events.push(json!({"type": "play", "player": SEATS[play.seat], "card": play.card.code()}));
    }

    let record = json!({
        "ruleset": RULESET,
        "description": format!("Imported from TarotClub deal log {label}"),
        "players": SEATS,
        "dealer": SEATS[dealer],
        "events": events,
    });
    check_rules_of_play(&record, &plays, &leaders)?;
    Ok(record)
}

/// The log does not name the dealer. Normally the player after the dealer leads the first trick;
/// with a slam announced the taker leads instead, and must.
pub(super) fn infer_dealer(log: &DealLog, inferred: &mut Vec<String>) -> Result<usize, String> {
    let taker_name = SEATS[log.taker];
    if !log.slam {
        let dealer = previous(log.first_lead);
        inferred.push(format!("The dealer is {}, the player before {}, who led the first trick.", SEATS[dealer], SEATS[log.first_lead]));
        return Ok(dealer);
    }
    if log.first_lead != log.taker {
        return Err(format!(
            "deal_info.first_trick_lead is {}, but the taker {taker_name} announced a slam and so \
             must lead the first trick",
            SEATS[log.first_lead]
        ));
    }
    let dealer = previous(log.taker);
    inferred.push(format!(
        "A slam was announced, so the taker {taker_name} led the first trick instead of the player \
         after the dealer; the dealer is taken to be {}, the player before the taker.",
        SEATS[dealer]
    ));
    Ok(dealer)
}

/// Rejects a card played twice. Returns the 6 cards that appear in no trick (in index order):
/// 72 distinct cards out of 78 leave exactly 6.
pub(super) fn check_each_card_played_once(log: &DealLog) -> Result<Vec<Card>, String> {
    let mut seen_in: [Option<usize>; DECK_SIZE] = [None; DECK_SIZE];
    for (t, trick) in log.tricks.iter().enumerate() {
        for card in trick {
            if let Some(earlier) = seen_in[card.index()].replace(t) {
                let earlier = if earlier == t { "this trick".to_string() } else { format!("trick {}", earlier + 1) };
                return Err(format!("trick {}: card {} was already played in {earlier}", t + 1, card.tarotclub()));
            }
        }
    }
    Ok((0..DECK_SIZE).filter(|&i| seen_in[i].is_none()).map(Card::from_index).collect())
}

/// Works out who played each card: the first trick is led by `first_trick_lead` and each later
/// one by the winner of the trick before. Returns the plays, each trick's leader and winner.
pub(super) fn attribute_plays(log: &DealLog) -> (Vec<Play>, Vec<usize>, Vec<usize>) {
    let mut plays = Vec::with_capacity(4 * TRICKS);
    let mut leaders = Vec::with_capacity(TRICKS);
    let mut winners = Vec::with_capacity(TRICKS);
    let mut leader = log.first_lead;
    for (t, trick) in log.tricks.iter().enumerate() {
        for (position, &card) in trick.iter().enumerate() {
            let seat = (leader + position) % 4;
            plays.push(Play { trick: t, seat, card });
        }
        let mut winner = (leader + trick_winner(trick)) % 4;
        // The one time the Excuse wins: led to the last trick by a side that won all the others.
        // No trick follows, so this changes no leader, only the winner we report.
        let leader_attacks = leader == log.taker;
        if t == TRICKS - 1 && trick[0] == Card::Excuse && winners.iter().all(|&w| (w == log.taker) == leader_attacks) {
            winner = leader;
        }
        leaders.push(leader);
        winners.push(winner);
        leader = winner;
    }
    (plays, leaders, winners)
}

/// The log does not say who led each trick, so check it the only way possible: the record built
/// with the hands that the order of leaders implies is replayed under the ruleset it names, and the engine's
/// rules of play must accept every card. A wrong leader gives cards to the wrong players, which
/// usually shows up as someone not following suit although holding it. The error names the trick
/// where the contradiction appears, which may come before the trick that is out of place. A record
/// the engine refuses for anything but a card played is left to its verdict.
pub(super) fn check_rules_of_play(record: &Value, plays: &[Play], leaders: &[usize]) -> Result<(), String> {
    let rules = ruleset()?;
    let game: crate::GameRecord = serde_json::from_value(record.clone()).map_err(|e| format!("the record built is unreadable: {e}"))?;
    let verdict = crate::replay(rules, &game).map_err(|e| format!("the record built cannot be replayed: {e}"))?;
    let Some(v) = verdict.violation.as_ref() else { return Ok(()) };
    // The n-th card played is the n-th play event.
    let nth = game.events.iter().take(v.event + 1).filter(|e| matches!(e, crate::Event::Play { .. })).count();
    let (Some(crate::Event::Play { .. }), Some(play)) = (game.events.get(v.event), nth.checked_sub(1).and_then(|n| plays.get(n))) else { return Ok(()) };
    let leader = SEATS[leaders.get(play.trick).copied().unwrap_or(0) % 4];
    let whose_lead = if play.trick == 0 { format!("{leader} (deal_info.first_trick_lead)") } else { format!("{leader} (winner of trick {})", play.trick) };
    Err(format!(
        "trick {}: with {whose_lead} leading, {} played {}, which the rules of play refuse ({}: {}), so the tricks' leaders do not fit the rules of play",
        play.trick + 1,
        SEATS[play.seat],
        play.card.tarotclub(),
        v.rule,
        v.message
    ))
}

/// The built-in ruleset the records name, compiled once.
pub(super) fn ruleset() -> Result<&'static crate::ir::Ruleset, String> {
    static RULES: std::sync::OnceLock<Result<crate::ir::Ruleset, String>> = std::sync::OnceLock::new();
    RULES
        .get_or_init(|| {
            let files = crate::Registry::builtin_files();
            crate::dsl::compile(RULESET, &|want| files.get(want).cloned()).map_err(|d| format!("the ruleset {RULESET} does not compile: {d}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Rebuilds the dealt hands and the dog. Everyone was dealt the cards they played, except that
/// in a prise or garde the taker swapped cards with the dog.
pub(super) fn rebuild_deal(log: &DealLog, plays: &[Play], unplayed: Vec<Card>, inferred: &mut Vec<String>) -> Result<Deal, String> {
    let taker_name = SEATS[log.taker];
    let mut hands: [Vec<Card>; 4] = Default::default();
    for play in plays {
        hands[play.seat].push(play.card);
    }
    inferred.push("Each player's hand is the cards they played (the log records no hands).".to_string());

    let dog;
    let mut discard = None;
    if log.contract.taker_takes_dog() {
        // The taker put back 6 cards, which were then out of play.
        inferred.push(format!("The taker's discard is the 6 cards that appear in no trick: {}.", code_list(&unplayed)));
        if log.dog.is_empty() {
            // Nothing says which cards came from the dog; the only choice that invents nothing is
            // that the taker put the dog back unchanged.
            dog = unplayed.clone();
            inferred.push(
                "The log does not record the dog: assumed the taker discarded the dog unchanged, \
                 so the dog is the discard and the taker's hand is the cards they played."
                    .to_string(),
            );
        } else {
            dog = log.dog.clone();
            // The dog went to the taker: each dog card was either played by them or discarded.
            for card in &dog {
                if let Some(play) = plays.iter().find(|p| p.card == *card && p.seat != log.taker) {
                    return Err(format!(
                        "deal_info.dog: {} was played by {} in trick {}, but the dog went to the \
                         taker {taker_name} (are first_trick_lead and the order of tricks right?)",
                        card.tarotclub(),
                        SEATS[play.seat],
                        play.trick + 1
                    ));
                }
            }
            let hand = &mut hands[log.taker];
            hand.extend(unplayed.iter().copied());
            hand.retain(|c| !dog.contains(c));
            inferred.push(format!(
                "The taker's dealt hand is the cards they played plus the discard, minus the dog \
                 ({}).",
                code_list(&dog)
            ));
        }
        // Not errors, since the log is what was played, but worth knowing.
        let forbidden: Vec<Card> = unplayed.iter().copied().filter(|c| c.is_king_or_oudler()).collect();
        if !forbidden.is_empty() {
            inferred.push(format!("Warning: the discard holds {}, which the rules forbid discarding.", code_list(&forbidden)));
        }
        let trumps: Vec<Card> = unplayed.iter().copied().filter(|c| c.is_trump()).collect();
        if !trumps.is_empty() {
            inferred.push(format!(
                "Note: the discard holds trumps ({}), which the rules allow only when unavoidable \
                 and which must be shown.",
                code_list(&trumps)
            ));
        }
        discard = Some(unplayed);
    } else if log.dog.is_empty() {
        // In a garde sans or garde contre the dog stays face down: it is the unplayed cards.
        inferred.push(format!("The log does not record the dog: it is the 6 cards that appear in no trick ({}).", code_list(&unplayed)));
        dog = unplayed;
    } else {
        dog = log.dog.clone();
        let mut given = dog.clone();
        given.sort_by_key(|c| c.index());
        if given != unplayed {
            let tarotclub_list = |cards: &[Card]| cards.iter().map(|c| c.tarotclub()).collect::<Vec<_>>().join(";");
            return Err(format!(
                "deal_info.dog: in a {} the dog is not used, so it should be the cards that appear \
                 in no trick ({}), not {}",
                log.contract.bid(),
                tarotclub_list(&unplayed),
                tarotclub_list(&dog)
            ));
        }
    }

    // Every card must be dealt exactly once: 4 hands of 18 and a dog of 6.
    let mut dealt: Vec<Card> = dog.clone();
    for (seat, hand) in hands.iter().enumerate() {
        if hand.len() != TRICKS {
            return Err(format!("{} would be dealt {} cards instead of {TRICKS}", SEATS[seat], hand.len()));
        }
        dealt.extend(hand.iter().copied());
    }
    check_distinct(&dealt, "rebuilt deal")?;
    if dealt.len() != DECK_SIZE {
        return Err(format!("rebuilt deal has {} cards instead of {DECK_SIZE}", dealt.len()));
    }
    Ok(Deal { hands, dog, discard })
}

/// Who showed each poignée. Poignées are shown before the first card, from the hand then held,
/// which is exactly the cards the player went on to play (after the taker's discard).
pub(super) fn find_handle_owners<'a>(log: &'a DealLog, plays: &[Play], inferred: &mut Vec<String>) -> Result<Vec<(usize, &'a [Card])>, String> {
    let held = |seat: usize, card: &Card| plays.iter().any(|p| p.seat == seat && p.card == *card);
    let taker_name = SEATS[log.taker];
    let mut handles = Vec::new();

    // The attack's poignée can only be the taker's (no partner with four players).
    if !log.attack_handle.is_empty() {
        if let Some(card) = log.attack_handle.iter().find(|c| !held(log.taker, c)) {
            return Err(format!("deal_info.attack_handle: the taker {taker_name} did not hold {}", card.tarotclub()));
        }
        handles.push((log.taker, &log.attack_handle[..]));
        inferred.push(format!("The attack's poignée ({} trumps, {}) was shown by the taker {taker_name}.", log.attack_handle.len(), handle_kind(log.attack_handle.len())));
    }

    // The log does not say which defender showed theirs: the one who held all those trumps.
    if !log.defense_handle.is_empty() {
        let holders: Vec<usize> = (0..4).filter(|&seat| seat != log.taker).filter(|&seat| log.defense_handle.iter().all(|c| held(seat, c))).collect();
        let holder = match holders[..] {
            [holder] => holder,
            [] => return Err("deal_info.defense_handle: no defender held all of these trumps".to_string()),
            _ => return Err("deal_info.defense_handle: more than one defender could have shown it".to_string()),
        };
        handles.push((holder, &log.defense_handle[..]));
        inferred.push(format!(
            "The defence's poignée ({} trumps, {}) was shown by {}, the defender who held those \
             trumps.",
            log.defense_handle.len(),
            handle_kind(log.defense_handle.len()),
            SEATS[holder]
        ));
    }
    Ok(handles)
}

/// The kind of poignée for four players: 10, 13 or 15 trumps at least.
pub(super) fn handle_kind(trumps: usize) -> &'static str {
    match trumps {
        15.. => "triple",
        13.. => "double",
        _ => "simple",
    }
}

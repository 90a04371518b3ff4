//! One game played out from the deal: what steering draws for it (`Plan`), then every move chosen
//! among the interpreter's legal moves.

use super::*;
use crate::verdict::Phase;

/// What steering has drawn for one game.
pub(super) struct Plan {
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
pub(super) fn play_out<R: Rng>(
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
        let event = match game.stage {
            Stage::Bidding => match after_opening_round_declaration(&game, sim, rng) {
                // A hand thrown in once the opening round is over.
                Some(e) => e,
                None => {
                    let bid = match plan.target {
                        Some(target) => steered_bid(rules, &game, &next.legal, target, plan.raise_to, rng),
                        None => next.legal.choose(rng).ok_or("no legal bid")?.clone(),
                    };
                    Event::Bid { player: next.player.as_ref().into(), bid: bid.as_str().into() }
                }
            },
            Stage::Call => {
                let in_dog: Vec<&String> = next.legal.iter().filter(|c| Card::parse(c).is_some_and(|c| game.dog.contains(c))).collect();
                let card = match in_dog.is_empty() || !(sim.call_dog > 0.0 && rng.gen_bool(sim.call_dog)) {
                    true => next.legal.choose(rng).ok_or("no card to call")?,
                    false => in_dog.choose(rng).copied().ok_or("no card to call")?,
                };
                Event::Call { player: next.player.as_ref().into(), card: card.as_str().into() }
            }
            Stage::Discard if next.phase == Phase::Take => match before_take_declaration(&game, sim, rng) {
                // A declaration made once the talon is shown, before the packet is taken.
                Some(e) => e,
                None => {
                    let packet = next.packets.choose(rng).ok_or("no packet of the talon to take")?;
                    Event::Take { player: next.player.as_ref().into(), cards: packet.iter().map(|c| c.as_str().into()).collect() }
                }
            },
            Stage::Play if next.phase == Phase::Buy => {
                // Half the time the taker buys nothing; else a card of another hand, for any of his.
                let call = next.legal.iter().filter(|c| *c != "pass").collect::<Vec<_>>();
                let gives = game.hands[p as usize].iter().collect::<Vec<Card>>();
                match (call.choose(rng), gives.choose(rng), rng.gen_bool(0.5)) {
                    (Some(c), Some(g), true) => Event::Buy { player: next.player.as_ref().into(), card: Some(c.as_str().into()), gives: Some(g.to_string().into()) },
                    _ => Event::Buy { player: next.player.as_ref().into(), card: None, gives: None },
                }
            }
            Stage::Discard => {
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
    // Steered to a contract at the top of a chain some player could not climb (`step` with `by`),
    // and missed: dealt again (`random_game_with`), so that such a contract is reached as others are.
    if let Some(t) = plan.raise_to.or(plan.target.map(|(t, _)| t)) {
        if game.contract != Some(t) && game.chain_barred_below(t) {
            return Err(Failed::Missed(Box::new(finished(events))));
        }
    }
    Ok(finished(events))
}

/// Draws what steering decides once per game. Draws no random number for the uniform simulator.
pub(super) fn plan<R: Rng>(setup: &Setup, sim: &SimOptions, strong: Option<u8>, rng: &mut R) -> Plan {
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

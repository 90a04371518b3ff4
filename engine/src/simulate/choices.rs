//! The steered choices: a bid aiming at the contract drawn, the declarations made or not, one made
//! at the take, and the moves a contract's requirements ask of its taker.

use std::collections::BTreeSet;

use super::*;

/// The bid that steers the auction to contract `target.0`, taken by the `target.1`-th bid: before it
/// a pass or, a quarter of the time, a lower contract; then the target; then passes. Falls back to
/// passing whenever the target is out of reach (an auction that goes differently), and to a uniform
/// choice if passing is not legal.
pub(super) fn steered_bid<R: Rng>(rules: &Ruleset, game: &Game, legal: &[String], (target, turn): (usize, usize), raise_to: Option<usize>, rng: &mut R) -> String {
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
    // With an opening round (`opening-round`), the bids are counted in the round in progress, and a
    // target bid only after it is passed to there.
    let (opening, spoken) = game.round_so_far();
    if let Some((cs, _)) = bidding.opening_round.as_ref().filter(|(cs, _)| opening && !cs.contains(&target)) {
        // A target that only an opening bid opens to the others (its `by`: a Gegensolo said over a
        // Solo) is reached by making that bid.
        if let Some(&c) = cs.iter().find(|&&c| is_legal(&name(c)) && game.opened_by(target, c)) {
            return name(c);
        }
        if is_legal("pass") {
            return "pass".into();
        }
    }
    // A contract only some may bid (`by`) is bid as soon as it is offered: its bidder may not get
    // another turn (forehand's Tapper, after a pass that is final).
    let now = spoken >= turn || contracts[target].by.is_some();
    // Under `step`, a contract opens only over the one below it: bid that one first, and the target
    // once it is held.
    let step_below = bidding.step.as_ref().and_then(|(cs, _)| cs.iter().position(|&c| c == target).filter(|&i| i > 0).map(|i| cs[i - 1]));
    // The steps of a chain below the target, lowest first: climbed by whoever speaks before the
    // target is reached, so that a chain of three or more gets to its top before the players run out
    // (under `step lowest`, where a holder only holds, by every speaker until it is reached; so too
    // for a target only some may bid, `by`, whose bidder the others must bring it within reach of).
    let climb = bidding.step.as_ref().and_then(|(cs, _)| {
        let at = cs.iter().position(|&c| c == target)?;
        cs[..at].iter().copied().find(|&c| is_legal(&name(c)))
    });
    let choice = if !taken && now && is_legal(&name(target)) {
        name(target)
    } else if let Some(below) = step_below.filter(|&b| !taken && now && is_legal(&name(b))) {
        name(below)
    } else if let Some(step) = climb.filter(|_| !taken && (spoken < turn || bidding.step_lowest || contracts[target].by.is_some())) {
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
        // Where some bids end the auction at once (`closing`), a bid drawn at random may close it
        // before the target: the target itself, when it is legal, is the bid that keeps it in reach.
        let target_now = bidding.closing.is_some() && is_legal(&name(target));
        (0..target).rev().map(name).find(|b| is_legal(b)).or(target_now.then(|| name(target))).unwrap_or(any)
    }
}

/// Declarations a player may make before play: for each kind and player, the largest valid show
/// among the player's cards of that kind (trying the cards in order of strength), made with the
/// chance `sim` gives (half the time unsteered). Each is tried after those made before it, so a
/// declaration that answers another (a Rekontra after a Kontra) can be made, and one a side makes
/// once is made by one player of it. Those made at the declarer's first card (`when first-play`) are
/// drawn here, in the same order, and returned apart as (kind, player), to be made at his turn.
pub(super) fn random_declarations<R: Rng>(rules: &Ruleset, game: &Game, sim: &SimOptions, strong: Option<u8>, rng: &mut R) -> (Vec<Event>, Vec<(usize, u8)>) {
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
    // A declaration made again (`repeats`: a double answering a double) is tried again, pass after
    // pass over those kinds alone, while the last pass made one; a ruleset without one draws nothing
    // more. A player who let one pass is not asked again until another declaration is made (the
    // defenders decline to answer a Retour once). Eight passes at most keep a simulated game's
    // doubles within reason.
    let again: Vec<(usize, u8)> = order.iter().copied().filter(|&(k, _)| rules.declarations[k].repeats.is_some()).collect();
    let mut pass = order;
    let mut declined = BTreeSet::new();
    for _ in 0..8 {
        let made = out.len();
        declaration_pass(&mut game, sim, strong, rng, (&pass, &mut declined), &mut out, &mut later);
        if out.len() == made || again.is_empty() {
            break;
        }
        pass = again.clone();
    }
    (out, later)
}

/// One pass of `random_declarations` over (kind, player) in the order given.
/// A (kind, player) in `declined` let it pass since the last declaration made: not asked again.
fn declaration_pass<R: Rng>(
    game: &mut Game,
    sim: &SimOptions,
    strong: Option<u8>,
    rng: &mut R,
    (order, declined): (&[(usize, u8)], &mut BTreeSet<(usize, u8)>),
    out: &mut Vec<Event>,
    later: &mut Vec<(usize, u8)>,
) {
    let rules = game.setup.rules;
    for &(k, p) in order {
        let d = &rules.declarations[k];
        // Who may make it (`by`) and not twice: no draw for a player who may not. One made before the
        // talon is taken was drawn then (`before_take_declaration`), one made once the opening round
        // is over in the auction (`after_opening_round_declaration`).
        if game.not_his_to_declare(p, k, d).is_some() || matches!(d.when, When::BeforeTake | When::AfterOpeningRound) || declined.contains(&(k, p)) {
            continue;
        }
        // Declaring or not are the two legal choices; unsteered, each is as likely. One that ends the
        // deal unplayed (`ends-deal`) is made with the chance `end_deal` gives (0 in both presets).
        let chance = match (d.shows.is_empty(), strong == Some(p)) {
            _ if d.ends_deal.is_some() => sim.end_deal,
            _ if d.ends_match_after.is_some() => sim.end_match_later,
            (false, _) => sim.declare,
            (true, true) => sim.announce_strong,
            (true, false) => sim.announce,
        };
        // A compulsory declaration is made whenever the hand holds one: not making it is illegal. One
        // whose chance is 0 draws no random number.
        if !game.is_compulsory(d) && (chance <= 0.0 && d.ends_match_after.is_some() || !rng.gen_bool(chance)) {
            declined.insert((k, p));
            continue;
        }
        if d.when == When::FirstPlay {
            later.push((k, p));
            continue;
        }
        if let Some(e) = declaration_event(game, k, p) {
            let mut tried = game.clone();
            if tried.apply(0, &e).is_ok() {
                *game = tried;
                out.push(e);
                declined.clear();
            }
        }
    }
}

/// A declaration made once the talon is shown, before the taker takes his packet (`when
/// before-take`): for each kind and each player in seat order, one that the game accepts now, made
/// with the chance `sim` gives (`end_deal` for one that ends the deal unplayed). No random number is
/// drawn where none is lawful or its chance is 0, so games without one draw what they always drew.
pub(super) fn before_take_declaration<R: Rng>(game: &Game, sim: &SimOptions, rng: &mut R) -> Option<Event> {
    timed_declaration(game, sim, rng, When::BeforeTake)
}

/// A declaration made once the auction's opening round is over (`when after-opening-round`: a hand
/// thrown in between the auction's rounds), drawn as `before_take_declaration` draws its own: no random
/// number where none is lawful or its chance is 0.
pub(super) fn after_opening_round_declaration<R: Rng>(game: &Game, sim: &SimOptions, rng: &mut R) -> Option<Event> {
    if game.after_opening_round().is_err() {
        return None;
    }
    timed_declaration(game, sim, rng, When::AfterOpeningRound)
}

/// For each kind of declaration of timing `when` and each player in seat order, one that the game
/// accepts now, made with the chance `sim` gives.
fn timed_declaration<R: Rng>(game: &Game, sim: &SimOptions, rng: &mut R, when: When) -> Option<Event> {
    let rules = game.setup.rules;
    for (k, d) in rules.declarations.iter().enumerate().filter(|(_, d)| d.when == when) {
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
            // A hand thrown in (`ends-deal annul`) is accepted by annulling the deal.
            let accepted = matches!(game.clone().apply(0, &e), Ok(()) | Err(crate::replay::Stop::Annulled(_)));
            if chance <= 0.0 || !accepted {
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
pub(super) fn meeting_requirements<'s, 'r>(game: &Game<'s, 'r>, t: u8) -> Option<(Event, Game<'s, 'r>)> {
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
pub(super) fn requirements_within_reach(game: &Game, t: u8, cards: CardSet) -> bool {
    let mut after = game.clone();
    let e = Event::Discard { player: game.names[t as usize].as_ref().into(), cards: cards.iter().map(|c| c.code()).collect() };
    after.apply(0, &e).is_ok() && (after.contract_requirements_met() || meeting_requirements(&after, t).is_some())
}

/// Declaration `k` by `p` with the largest show the rules accept (none for an announcement such as a
/// chelem); `None` when his hand has none.
pub(super) fn declaration_event(game: &Game, k: usize, p: u8) -> Option<Event> {
    let d = &game.setup.rules.declarations[k];
    let shown = if d.shows.is_empty() { CardSet::EMPTY } else { game.best_show(p, game.declaring_hand(p, d), d)? };
    Some(Event::Declare { player: game.names[p as usize].as_ref().into(), declaration: d.name.as_str().into(), cards: shown.iter().map(|c| c.code()).collect() })
}

/// Declarations made right after the deal (`when after-deal`: Tarocchini's dealer calling himself out
/// on his first 15 cards): for each such kind and each player in seat order, the largest show the rules
/// accept, made with the chance `sim` gives. A random number is drawn only for a declaration the player
/// may lawfully make, so games where none is lawful (nearly all, for a call-out to a match's end)
/// draw what they always drew.
pub(super) fn after_deal_declarations<R: Rng>(rules: &Ruleset, game: &Game, sim: &SimOptions, strong: Option<u8>, rng: &mut R) -> Vec<Event> {
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
                _ if d.ends_match_after.is_some() => sim.end_match_later,
                (false, _) => sim.declare,
                (true, true) => sim.announce_strong,
                (true, false) => sim.announce,
            };
            // One that names the match's last dealer draws no random number where its chance is 0.
            if (chance > 0.0 || d.ends_match_after.is_none()) && rng.gen_bool(chance) {
                game = tried;
                out.push(e);
            }
        }
    }
    out
}

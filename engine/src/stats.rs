//! Deal statistics: how often, over many seeded random deals, each annulment strikes, each
//! declaration can be made, and each count of a named card class (oudlers, Tarots) is dealt. They
//! depend on the deal alone: no card is played here, so nothing that depends on play (a petit au bout,
//! a slam) is counted.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cards::{Card, CardSet, FOOL};
use crate::expr::{Expr, Fact};
use crate::ir::{DeclarationKind, Ruleset};
use crate::replay::{Game, Setup, Stop};
use crate::verdict::InputError;

/// Deal statistics of one ruleset over seeded random deals.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DealStats {
    pub ruleset: String,
    /// The players dealt cards.
    // At a table where the dealer sits out, one fewer than sit there.
    pub players: usize,
    pub deals: u64,
    pub seed: u64,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub note: &'static str,
    /// Deals annulled, by annulment.
    // A deal counts once, for the first that strikes.
    pub annulments: BTreeMap<String, u64>,
    /// Hands that could make each declaration.
    // By `shows` and `require`, by kind.
    pub declarations: BTreeMap<String, u64>,
    /// For each card class: how many hands were dealt 0, 1, 2... of its cards.
    pub classes: BTreeMap<String, Vec<u64>>,
    /// Where an option changes the pack (the Fool a trump or the Excuse): which pack was dealt (the
    /// default options') and what the other choice makes of it; absent for other rulesets.
    // The option: `fool "name" trump = condition`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pack: Option<String>,
    /// The options the deals were made with, where any was chosen (the others at their defaults);
    /// absent when none was.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::OptionValues))]
    pub options: BTreeMap<String, serde_json::Value>,
}

/// Which pack the statistics deal where an option changes it: the default options' pack, named, or
/// the pack of the options chosen (`dealt`, the ruleset those options choose).
fn pack_dealt(rules: &Ruleset, dealt: &Ruleset, options: &BTreeMap<String, serde_json::Value>) -> Option<String> {
    let v = rules.fool_variant.as_ref()?;
    let what = |trump: bool| if trump { "a trump" } else { "the Excuse" };
    let named = |choice: &mut dyn Iterator<Item = (&String, String)>| choice.map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ");
    if v.other_way.keys().any(|k| options.contains_key(k)) {
        let trump = !dealt.pack.cards.contains(FOOL);
        let chosen = named(
            &mut rules
                .options
                .iter()
                .filter(|o| v.other_way.contains_key(&o.name))
                .map(|o| (&o.name, options.get(&o.name).map_or_else(|| o.default.to_string(), |v| v.to_string()))),
        );
        return Some(format!("dealt with the pack of the options chosen ({chosen}): {} is {}", dealt.pack.fool_name, what(trump)));
    }
    let trump = !rules.pack.cards.contains(FOOL);
    let defaults = named(&mut rules.options.iter().filter(|o| v.other_way.contains_key(&o.name)).map(|o| (&o.name, o.default.to_string())));
    Some(format!(
        "dealt with the pack of the default options ({defaults}): {} is {}; with {} it is {}",
        rules.pack.fool_name,
        what(trump),
        named(&mut v.other_way.iter().map(|(k, x)| (k, x.to_string()))),
        what(!trump)
    ))
}

/// Checks options chosen for a ruleset, as a query gives them (text): each a known option, each value
/// one of its choices (the text of a number reads as that number). The options as JSON values,
/// or what is wrong.
pub fn read_options(rules: &Ruleset, given: &[(String, String)]) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let mut out = BTreeMap::new();
    for (name, text) in given {
        let Some(o) = rules.options.iter().find(|o| &o.name == name) else {
            let known: Vec<&str> = rules.options.iter().map(|o| o.name.as_str()).collect();
            return Err(format!("{} has no option `{name}`; its options are: {}", rules.id, if known.is_empty() { "none".to_string() } else { known.join(", ") }));
        };
        let value = o.choices.iter().find(|c| c.as_str() == Some(text.as_str()) || (c.as_str().is_none() && c.to_string() == *text)).ok_or_else(|| {
            let choices: Vec<String> = o.choices.iter().map(|c| c.plain()).collect();
            format!("option `{name}` of {} cannot be `{text}`; choose one of {}", rules.id, choices.join(", "))
        })?;
        out.insert(name.clone(), value.to_json());
    }
    Ok(out)
}

/// The most deals one request of statistics may ask for.
pub const MAX_DEALS: u64 = 1_000_000;

/// Says what is wrong with a number of deals outside 1..=MAX_DEALS.
pub fn check_deals(deals: u64) -> Result<(), String> {
    if (1..=MAX_DEALS).contains(&deals) {
        Ok(())
    } else {
        Err(format!("the number of deals is between 1 and 1,000,000, not {deals}"))
    }
}

pub const NOTE: &str = "statistics of the deal alone: no card is played, so nothing that depends on the play is counted";

/// Deals `deals` random deals (seeded) and counts; `progress` is called now and then with the
/// number of deals done.
pub fn deal_stats(rules: &Ruleset, players: usize, deals: u64, seed: u64, progress: &mut dyn FnMut(u64)) -> Result<DealStats, InputError> {
    run(rules, players, &BTreeMap::new(), deals, seed, progress, true, &AtomicBool::new(false)).map(|s| s.expect("never cancelled"))
}

/// The same, with options chosen (by name, JSON values as a record gives them; the others at their
/// defaults): the pack they choose is dealt, and the rules read them.
pub fn deal_stats_with(
    rules: &Ruleset,
    players: usize,
    options: &BTreeMap<String, serde_json::Value>,
    deals: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<DealStats, InputError> {
    run(rules, players, options, deals, seed, progress, true, &AtomicBool::new(false)).map(|s| s.expect("never cancelled"))
}

/// The same, given up once `cancelled` is set (it is read every [`CANCEL_EVERY`] deals): `None`
/// then. A server sets it when the client that asked has gone, so that nobody's deals go on.
pub fn deal_stats_until(
    rules: &Ruleset,
    players: usize,
    options: &BTreeMap<String, serde_json::Value>,
    deals: u64,
    seed: u64,
    cancelled: &AtomicBool,
) -> Result<Option<DealStats>, InputError> {
    run(rules, players, options, deals, seed, &mut |_| {}, true, cancelled)
}

/// How often the deals look at the cancellation flag: 256 deals of the slowest built-in ruleset take
/// a fifth of a second on a release build, and one atomic read per 256 deals costs nothing.
pub const CANCEL_EVERY: u64 = 256;

/// The same statistics, asking the interpreter about every hand instead of remembering its answers
/// by counts: slower, for tests that check the two agree.
#[doc(hidden)]
pub fn deal_stats_unremembered(rules: &Ruleset, players: usize, deals: u64, seed: u64) -> Result<DealStats, InputError> {
    run(rules, players, &BTreeMap::new(), deals, seed, &mut |_| {}, false, &AtomicBool::new(false)).map(|s| s.expect("never cancelled"))
}

/// The work of one deal of the statistics, for a server to bound what a request may ask before it
/// deals: cards shuffled, hands counted, and the rules that the interpreter is asked about for every
/// hand because their answers cannot be remembered by counts (a sequence, a rule reading the order
/// of the deal). Those are by far the dearest: tens of microseconds each, against nanoseconds for a
/// card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DealWork {
    pub cards: usize,
    pub hands: usize,
    /// Annulments and declarations asked about hand by hand.
    pub unremembered: usize,
}

/// The work of one deal of `rules` at a table of `players` with `options` (what [`deal_stats_with`]
/// would deal), or why they cannot be dealt.
pub fn deal_work(asked: &Ruleset, players: usize, options: &BTreeMap<String, serde_json::Value>) -> Result<DealWork, InputError> {
    let input = |message| InputError { event: None, message };
    let rules = asked.with_pack_for(players, options).map_err(input)?;
    let setup = Setup::new(rules, players, options).map_err(input)?;
    let names: Vec<String> = (0..setup.n).map(|p| format!("P{p}")).collect();
    let game = Game::new(&setup, &names, 0);
    let hand_max = setup.hand.max(setup.dealer_hand);
    let annulments = rules.annulments.iter().filter(|a| annulment_memo(&game, &a.when, hand_max).is_none()).count();
    let declarations = rules.declarations.iter().filter(|d| !d.shows.is_empty() && declaration_memo(&game, d, hand_max).is_none()).count();
    Ok(DealWork { cards: rules.pack.cards.len(), hands: setup.n, unremembered: annulments + declarations })
}

#[allow(clippy::too_many_arguments)]
fn run(
    asked: &Ruleset,
    players: usize,
    options: &BTreeMap<String, serde_json::Value>,
    deals: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64),
    remember: bool,
    cancelled: &AtomicBool,
) -> Result<Option<DealStats>, InputError> {
    let input = |message| InputError { event: None, message };
    let rules = asked.with_pack_for(players, options).map_err(input)?;
    let setup = Setup::new(rules, players, options).map_err(input)?;
    // Those dealt cards: one fewer than at the table where the dealer sits out.
    let players = setup.n;
    let names: Vec<String> = (0..players).map(|p| format!("P{p}")).collect();
    let classes: Vec<(&str, CardSet)> = rules.classes.iter().filter_map(|c| c.label.as_ref().map(|_| (c.name.as_str(), c.cards))).collect();
    let mut stats = DealStats {
        ruleset: asked.id.clone(),
        players,
        deals,
        seed,
        note: NOTE,
        annulments: BTreeMap::new(),
        declarations: BTreeMap::new(),
        classes: BTreeMap::new(),
        pack: pack_dealt(asked, rules, options),
        options: options.clone(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pack: Vec<Card> = rules.pack.cards.iter().collect();
    let mut game = Game::new(&setup, &names, 0);
    let hand_max = setup.hand.max(setup.dealer_hand);
    let mut annulments: Vec<Option<Memo>> = rules.annulments.iter().map(|a| annulment_memo(&game, &a.when, hand_max)).collect();
    let shown: Vec<&DeclarationKind> = rules.declarations.iter().filter(|d| !d.shows.is_empty()).collect();
    let mut declarations: Vec<Option<Memo>> = shown.iter().map(|d| declaration_memo(&game, d, hand_max)).collect();
    // `annuls` stops only on an input error (a rule that cannot be evaluated on a bare deal, such as
    // one that needs the order of the deal); say which and why.
    let cannot = |stop: Stop| {
        let why = match stop {
            Stop::Input(e) => e.message,
            Stop::Ruleset(e) => e.to_string(),
            _ => "it stopped the deal".into(),
        };
        InputError { event: None, message: format!("{}: deal statistics cannot evaluate an annulment: {why}", rules.id) }
    };
    if !remember {
        annulments.iter_mut().chain(&mut declarations).for_each(|m| *m = None);
    }
    // Counted in vectors in the loop, written to the maps at the end.
    let mut annulled = vec![0u64; annulments.len()];
    let mut declared = vec![0u64; shown.len()];
    let mut per_class: Vec<Vec<u64>> = classes.iter().map(|(_, c)| vec![0; c.len() + 1]).collect();
    let mut hands = vec![CardSet::EMPTY; players];
    for i in 0..deals {
        if i % 65536 == 0 {
            progress(i);
        }
        if i % CANCEL_EVERY == 0 && cancelled.load(Ordering::Relaxed) {
            return Ok(None);
        }
        shuffle(&mut pack, &mut rng);
        let mut at = 0;
        for (p, hand) in hands.iter_mut().enumerate() {
            let k = if p == 0 { setup.dealer_hand } else { setup.hand };
            *hand = pack[at..at + k].iter().copied().collect();
            at += k;
        }
        // The hands are the ones dealt, for a rule that reads `hand_of(p)` (Tapp Tarock's honours,
        // "dealt, not taken from the talon"): such a rule is not remembered by counts, so it is asked
        // hand by hand with the deal in place.
        game.dealt[..players].copy_from_slice(&hands);
        for (p, hand) in hands.iter().enumerate() {
            for ((_, set), counts) in classes.iter().zip(&mut per_class) {
                counts[hand.and(*set).len()] += 1;
            }
            for ((d, memo), n) in shown.iter().zip(&mut declarations).zip(&mut declared) {
                let can = |hand: CardSet| Ok::<_, InputError>(game.best_show(p as u8, hand, d).is_some());
                let can = match memo {
                    Some(m) => m.get(*hand, can)?,
                    None => can(*hand)?,
                };
                *n += can as u64;
            }
        }
        // A deal counts once, for the first annulment that strikes (in the rules' order).
        'annulments: for ((i, memo), n) in annulments.iter_mut().enumerate().zip(&mut annulled) {
            for (p, hand) in hands.iter().enumerate() {
                let annuls = |hand: CardSet| game.annuls(i, p as u8, hand).map_err(cannot);
                let annuls = match memo {
                    Some(m) => m.get(*hand, annuls)?,
                    None => annuls(*hand)?,
                };
                if annuls {
                    *n += 1;
                    break 'annulments;
                }
            }
        }
    }
    for (a, n) in rules.annulments.iter().zip(annulled) {
        stats.annulments.insert(a.name.clone(), n);
    }
    for (d, n) in shown.iter().zip(declared) {
        stats.declarations.insert(d.name.clone(), n);
    }
    for ((name, _), counts) in classes.iter().zip(per_class) {
        stats.classes.insert(name.to_string(), counts);
    }
    progress(deals);
    Ok(Some(stats))
}

/// Fisher–Yates with Lemire's multiply-and-shift draws (a division only on the rare draw that might
/// be biased): uniform like `SliceRandom::shuffle`, and the statistics run 1.9 times as fast with it
/// (`cargo bench -p tarot-engine --bench replay -- "deal statistics"`: 6.0 ms against 11.2 ms per
/// 10,000 deals of the benchmark's ruleset, measured side by side).
fn shuffle<T>(items: &mut [T], rng: &mut impl RngCore) {
    for i in (1..items.len()).rev() {
        let n = i as u64 + 1;
        let mut m = rng.next_u32() as u64 * n;
        if (m as u32 as u64) < n {
            let threshold = (1u64 << 32) % n;
            while (m as u32 as u64) < threshold {
                m = rng.next_u32() as u64 * n;
            }
        }
        items.swap(i, (m >> 32) as usize);
    }
}

/// A formula's answer for a hand, remembered for each distinct count of the hand in the sets the
/// formula counts it against (see [`Expr::hand_features`]). Exact: the formula sees nothing else of the
/// hand, so two hands with the same counts get the same answer.
struct Memo {
    sets: Vec<CardSet>,
    radix: Vec<usize>,
    /// 0 not yet known, 1 no, 2 yes.
    table: Vec<u8>,
}

impl Memo {
    const MAX_ENTRIES: usize = 1 << 20;

    fn new(mut sets: Vec<CardSet>, hand_max: usize) -> Option<Memo> {
        sets.sort_by_key(|s| s.0);
        sets.dedup();
        let radix: Vec<usize> = sets.iter().map(|s| s.len().min(hand_max) + 1).collect();
        let size = radix.iter().try_fold(1usize, |n, r| n.checked_mul(*r)).filter(|n| *n <= Self::MAX_ENTRIES)?;
        Some(Memo { sets, radix, table: vec![0; size] })
    }

    fn get<E>(&mut self, hand: CardSet, compute: impl FnOnce(CardSet) -> Result<bool, E>) -> Result<bool, E> {
        let key = self.sets.iter().zip(&self.radix).fold(0, |key, (s, r)| key * r + hand.and(*s).len());
        match self.table[key] {
            0 => {
                let answer = compute(hand)?;
                self.table[key] = 1 + answer as u8;
                Ok(answer)
            }
            known => Ok(known == 2),
        }
    }
}

fn annulment_memo(game: &Game, when: &Expr, hand_max: usize) -> Option<Memo> {
    let features = when.hand_features(&|x| game.constant(x))?;
    let sets = features.counts.iter().map(|(fact, set)| (*fact == Fact::Hand).then_some(*set)).collect::<Option<Vec<_>>>()?;
    Memo::new(sets, hand_max)
}

/// A declaration can be remembered by counts when, besides counting the hand, its formulas count the
/// cards shown only against sets that take all of the shown cards but the Fool or none of them: the
/// shows tried (the strongest cards first, the Fool last) then depend only on how many such cards the
/// hand holds and whether it holds the Fool.
fn declaration_memo(game: &Game, d: &DeclarationKind, hand_max: usize) -> Option<Memo> {
    let plain = d.shows.minus(CardSet::single(FOOL));
    let mut sets = vec![plain, d.shows.and(CardSet::single(FOOL))];
    for e in d.requires.iter().map(|(_, e, _)| e).chain(&d.value) {
        for (fact, set) in e.hand_features(&|x| game.constant(x))?.counts {
            match fact {
                Fact::Hand => sets.push(set),
                Fact::Shown if set.and(plain).is_empty() || set.and(plain) == plain => {}
                _ => return None,
            }
        }
    }
    Memo::new(sets, hand_max)
}

/// Several rulesets' statistics side by side, as text.
pub fn to_text(all: &[DealStats]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for s in all {
        let _ = writeln!(out, "{} — {} players, {} deals, seed {}", s.ruleset, s.players, s.deals, s.seed);
        if !s.options.is_empty() {
            let chosen: Vec<String> = s.options.iter().map(|(k, v)| format!("{k} = {}", v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect();
            let _ = writeln!(out, "  (options: {})", chosen.join(", "));
        }
        if let Some(pack) = &s.pack {
            let _ = writeln!(out, "  ({pack})");
        }
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        for (name, n) in &s.annulments {
            let _ = writeln!(out, "  annulment {name:<20} {n:>10} deals  {:>8.4}%", pct(*n, s.deals));
        }
        let hands = s.deals * s.players as u64;
        for (name, n) in &s.declarations {
            let _ = writeln!(out, "  declaration {name:<18} {n:>10} hands  {:>8.4}%", pct(*n, hands));
        }
        for (name, counts) in &s.classes {
            let spread: Vec<String> = counts.iter().enumerate().map(|(k, n)| format!("{k}: {:.2}%", pct(*n, hands))).collect();
            let _ = writeln!(out, "  {name} per hand: {}", spread.join(", "));
        }
    }
    let _ = writeln!(out, "({NOTE})");
    out
}

//! Studying the rulesets: `rulesets` (list, show in words), `compare` (side by side), `stats` (deal
//! statistics) and `simulate` (random legal games).

use std::collections::BTreeMap;

use rand::SeedableRng;
use tarot_engine::{describe, parse_record, random_game_with, ContractChoice, Registry, SimOptions};

use crate::{Rulesets, Simulate};

pub(crate) fn rulesets(registry: &Registry, show: Option<Rulesets>) -> Result<(), String> {
    match show {
        None => {
            // Columns as wide as their widest entry (ids and table sizes of any rule files read).
            let players = |r: &tarot_engine::ir::Ruleset| if r.players.0 == r.players.1 { r.players.0.to_string() } else { format!("{}-{}", r.players.0, r.players.1) };
            let width = registry.all().map(|r| r.id.chars().count()).max().unwrap_or(0);
            let table = registry.all().map(|r| players(r).len()).max().unwrap_or(0).max(5);
            for r in registry.all() {
                let parent = r.chain.get(1).map(|p| format!(" (extends {p})")).unwrap_or_default();
                println!("{:<width$} {:<table$} {}{parent}", r.id, players(r), r.title);
            }
            Ok(())
        }
        Some(Rulesets::Show { id, json }) => {
            let r = ruleset(registry, &id)?;
            let d = describe(r, &BTreeMap::new());
            if json {
                println!("{}", serde_json::to_string_pretty(&d).map_err(|e| e.to_string())?);
            } else {
                print!("{}", d.to_text());
            }
            Ok(())
        }
    }
}

pub(crate) fn compare_rulesets(registry: &Registry, ids: &str, json: bool, file: Option<String>) -> Result<(), String> {
    let rules = named_rulesets(registry, ids)?;
    if rules.len() < 2 {
        let named = rules.first().map_or("none".to_string(), |r| format!("only {}", r.id));
        return Err(format!("compare needs at least two rulesets (--rulesets a,b); `{ids}` names {named}"));
    }
    if let Some(file) = file {
        let json_text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let record = parse_record(&json_text).map_err(|e| format!("{file}: {e}"))?;
        let c = tarot_engine::compare_game(&rules, &record);
        if json {
            println!("{}", serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?);
        } else {
            print!("{}", c.to_text());
        }
        return Ok(());
    }
    let c = tarot_engine::compare(&rules);
    if json {
        println!("{}", serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?);
    } else {
        print!("{}", c.to_text());
    }
    Ok(())
}

/// A known ruleset, or an error that lists the known ones.
fn ruleset<'a>(registry: &'a Registry, id: &str) -> Result<&'a tarot_engine::ir::Ruleset, String> {
    tarot_api::usecases::ruleset(registry, id).map_err(|e| e.to_string())
}

/// The rulesets of a comma-separated list of ids.
fn named_rulesets<'a>(registry: &'a Registry, ids: &str) -> Result<Vec<&'a tarot_engine::ir::Ruleset>, String> {
    ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|id| ruleset(registry, id)).collect()
}

pub(crate) fn deal_statistics(registry: &Registry, ids: &str, deals: u64, seed: u64, players: Option<u64>, given: Vec<(String, String)>, json: bool) -> Result<(), String> {
    // Options as the API's `options` takes them: each applies to every ruleset named that has it.
    tarot_engine::check_deals(deals).map_err(|e| format!("--deals: {e}"))?;
    let rules = named_rulesets(registry, ids)?;
    if rules.is_empty() {
        return Err(format!("stats needs at least one ruleset (--rulesets a,b); `{ids}` names none"));
    }
    if let Some((name, _)) = given.iter().find(|(n, _)| !rules.iter().any(|r| r.options.iter().any(|o| &o.name == n))) {
        return Err(format!("--option {name}: no ruleset named has an option `{name}`"));
    }
    let mut all = vec![];
    for rules in rules {
        let id = &rules.id;
        let n = players.map(|n| n as usize).unwrap_or(rules.players.0);
        let mut bar = |done: u64| {
            let width = 30;
            let filled = (done * width / deals) as usize;
            eprint!("\r{id:<24} [{}{}] {:>3}%", "#".repeat(filled), " ".repeat(width as usize - filled), done * 100 / deals);
        };
        let own: Vec<(String, String)> = given.iter().filter(|(n, _)| rules.options.iter().any(|o| &o.name == n)).cloned().collect();
        let options = tarot_engine::read_options(rules, &own).map_err(|e| format!("--option: {e}"))?;
        let s = tarot_engine::deal_stats_with(rules, n, &options, deals, seed, &mut bar).map_err(|e| e.to_string())?;
        eprintln!();
        all.push(s);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    } else {
        print!("{}", tarot_engine::stats_to_text(&all));
    }
    Ok(())
}

pub(crate) fn simulate_games(registry: &Registry, args: Simulate) -> Result<(), String> {
    let Simulate { ruleset: id, players, games, seed, out, steer, contract, hold_excuse, strong_hand, options: given, carry, match_end } = args;
    let rules = ruleset(registry, &id)?;
    let players = players.unwrap_or(rules.players.0);
    let mut steering = String::new();
    let mut sim = if steer {
        steering.push_str(" --steer");
        SimOptions::steered()
    } else {
        SimOptions::default()
    };
    if let Some(c) = contract {
        steering.push_str(&format!(" --contract {c}"));
        sim.contract = match c.as_str() {
            "even" => ContractChoice::Even,
            "uniform" => ContractChoice::Uniform,
            _ => ContractChoice::Only(c),
        };
    }
    if let Some(p) = hold_excuse {
        steering.push_str(&format!(" --hold-excuse {p}"));
        sim.hold_excuse = p;
    }
    if let Some(p) = strong_hand {
        steering.push_str(&format!(" --strong-hand {p}"));
        sim.strong_hand = p;
    }
    if carry {
        steering.push_str(" --carry");
        sim.carry = true;
    }
    if let Some(p) = match_end {
        steering.push_str(&format!(" --match-end {p}"));
        sim.match_end = p;
    }
    // Options as a record gives them: a string, or a number or true/false where the text reads as one.
    let mut options = BTreeMap::new();
    for (name, value) in given {
        steering.push_str(&format!(" --option {name}={value}"));
        let value = serde_json::from_str(&value).unwrap_or(serde_json::Value::String(value));
        options.insert(name, value);
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for i in 0..games {
        let mut rec = random_game_with(rules, players, &options, &sim, &mut rng)?;
        rec.description = Some(format!("Random legal game {i} of `tarot-archive simulate --ruleset {id} --players {players} --seed {seed}{steering}`"));
        let path = out.join(format!("{id}-{players}p-{seed}-{i:05}.json"));
        let json = serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())?;
        std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    eprintln!("wrote {games} games to {}", out.display());
    Ok(())
}

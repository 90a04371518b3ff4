#[test]
fn tarotclub() {
    let reg = tarot_engine::Registry::builtin().unwrap();
    let r = reg.get("fft-4p").unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/peers/tarotclub-deals/");
    for f in ["tarotmag_17","tarotmag_18","3_oudlers","4_oudlers_bug","01-T_lasttrickbydefense_game_lost","01-T_lasttrickbydefense_game_won","slam_announced_failure","taker_loses_two_oudlers","maximum_points","slam_not_announed_by_defense"] {
        let text = std::fs::read_to_string(format!("{dir}{f}.json")).unwrap();
        let imp = tarot_engine::import::tarotclub::import(&text, f).unwrap();
        let rec: tarot_engine::GameRecord = serde_json::from_value(imp.record).unwrap();
        let v = tarot_engine::replay(r, &rec).unwrap();
        let o = v.outcome.as_ref();
        println!("{f}: {:?} {:?}", v.status, v.violation.as_ref().map(|v| &v.message));
        if let Some(o) = o {
            let vals: Vec<String> = o.values.iter().filter(|(k,_)| ["points","bouts","petit_au_bout"].contains(&k.as_str())).map(|(k,v)| format!("{k}={v}")).collect();
            let sc: Vec<String> = o.players.iter().map(|p| format!("{}:{}", p.player, p.score)).collect();
            println!("   taker {:?} {:?} {} | {}", o.taker, o.contract, vals.join(" "), sc.join(" "));
        }
    }
}

//! Reading a TarotClub deal log: its JSON (trailing commas tolerated), the contract, the dog, the
//! poignées and the tricks as written, each from its leader.

use super::*;

// ---------------------------------------------------------------------------------------------
// Reading the deal log
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Contract {
    Prise,
    Garde,
    GardeSans,
    GardeContre,
}

impl Contract {
    fn parse(text: &str) -> Option<Contract> {
        match text {
            "Take" => Some(Contract::Prise),
            "Guard" => Some(Contract::Garde),
            "Guard without" => Some(Contract::GardeSans),
            "Guard against" => Some(Contract::GardeContre),
            _ => None,
        }
    }

    /// The bid as this project writes it.
    pub(super) fn bid(self) -> &'static str {
        match self {
            Contract::Prise => "prise",
            Contract::Garde => "garde",
            Contract::GardeSans => "garde-sans",
            Contract::GardeContre => "garde-contre",
        }
    }

    /// Only in a prise or garde does the taker pick up the dog and discard.
    pub(super) fn taker_takes_dog(self) -> bool {
        matches!(self, Contract::Prise | Contract::Garde)
    }
}

/// The content of a deal log, checked for form but not yet for consistency.
pub(super) struct DealLog {
    pub(super) taker: usize,
    pub(super) contract: Contract,
    pub(super) slam: bool,
    pub(super) first_lead: usize,
    /// Empty when the log does not record the dog (several of TarotClub's own files).
    pub(super) dog: Vec<Card>,
    pub(super) attack_handle: Vec<Card>,
    pub(super) defense_handle: Vec<Card>,
    /// Each trick in play order, starting with its leader.
    pub(super) tricks: Vec<[Card; 4]>,
}

pub(super) fn parse_log(text: &str, inferred: &mut Vec<String>) -> Result<DealLog, String> {
    let root: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(strict_error) => {
            // Some of TarotClub's own files end an object with `,` (its JSON writer is lenient),
            // so retry without trailing commas before giving up.
            let (relaxed, removed) = remove_trailing_commas(text);
            match serde_json::from_str(&relaxed) {
                Ok(value) if removed > 0 => {
                    inferred.push(format!("The file is not strict JSON: ignored {removed} trailing comma(s)."));
                    value
                }
                _ => return Err(format!("not valid JSON: {strict_error}")),
            }
        }
    };
    let root = root.as_object().ok_or("the top level should be a JSON object")?;
    note_ignored_fields(root, &["version", "deal_info", "tricks"], "", inferred);

    match root.get("version") {
        None => inferred.push("The file has no \"version\"; read it as version 3.".to_string()),
        Some(Value::String(v)) if v == "3" => {}
        Some(Value::Number(n)) if n.as_u64() == Some(3) => {}
        Some(other) => return Err(format!("unsupported version {other} (only \"3\" is known)")),
    }

    let info = root.get("deal_info").ok_or("missing \"deal_info\"")?.as_object().ok_or("\"deal_info\" should be an object")?;
    note_ignored_fields(info, &["number_of_players", "taker", "contract", "slam", "first_trick_lead", "dog", "attack_handle", "defense_handle"], "deal_info.", inferred);

    match info.get("number_of_players") {
        None => inferred.push("deal_info has no \"number_of_players\"; assumed 4.".to_string()),
        Some(n) if n.as_u64() == Some(4) => {}
        Some(other) => return Err(format!("deal_info.number_of_players: {other} (only 4 players are supported)")),
    }

    let taker = get_str(info, "taker")?;
    let taker = parse_seat(taker).ok_or_else(|| format!("deal_info.taker: unknown seat {taker:?}"))?;
    let contract = get_str(info, "contract")?;
    let contract = Contract::parse(contract).ok_or_else(|| format!("deal_info.contract: unknown contract {contract:?}"))?;
    let slam = info.get("slam").ok_or("deal_info: missing \"slam\"")?.as_bool().ok_or("deal_info.slam should be true or false")?;
    let first_lead = get_str(info, "first_trick_lead")?;
    let first_lead = parse_seat(first_lead).ok_or_else(|| format!("deal_info.first_trick_lead: unknown seat {first_lead:?}"))?;

    let dog = parse_card_list(get_str(info, "dog")?, "deal_info.dog")?;
    if !dog.is_empty() && dog.len() != DOG_SIZE {
        return Err(format!("deal_info.dog: {} cards instead of {DOG_SIZE}", dog.len()));
    }
    check_distinct(&dog, "deal_info.dog")?;

    let attack_handle = parse_handle(info, "attack_handle")?;
    let defense_handle = parse_handle(info, "defense_handle")?;

    let tricks_json = root.get("tricks").ok_or("missing \"tricks\"")?.as_array().ok_or("\"tricks\" should be an array")?;
    if tricks_json.len() != TRICKS {
        return Err(format!("{} tricks instead of {TRICKS}", tricks_json.len()));
    }
    let mut tricks = Vec::with_capacity(TRICKS);
    for (i, trick) in tricks_json.iter().enumerate() {
        let place = format!("trick {}", i + 1);
        let text = trick.as_str().ok_or_else(|| format!("{place}: should be a string"))?;
        let cards = parse_card_list(text, &place)?;
        let cards: [Card; 4] = cards.try_into().map_err(|cards: Vec<Card>| format!("{place}: {} cards instead of 4", cards.len()))?;
        tricks.push(cards);
    }

    Ok(DealLog { taker, contract, slam, first_lead, dog, attack_handle, defense_handle, tricks })
}

pub(super) fn get_str<'a>(info: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    info.get(key).ok_or_else(|| format!("deal_info: missing {key:?}"))?.as_str().ok_or_else(|| format!("deal_info.{key} should be a string"))
}

/// A poignée is written as the trumps shown (`00-T` is the Excuse), or `""` for none.
pub(super) fn parse_handle(info: &Map<String, Value>, key: &str) -> Result<Vec<Card>, String> {
    let place = format!("deal_info.{key}");
    let cards = parse_card_list(get_str(info, key)?, &place)?;
    check_distinct(&cards, &place)?;
    if let Some(card) = cards.iter().find(|c| !c.is_trump() && **c != Card::Excuse) {
        return Err(format!("{place}: {} is not a trump", card.tarotclub()));
    }
    // With four players the smallest poignée is 10 trumps.
    if !cards.is_empty() && cards.len() < 10 {
        return Err(format!("{place}: {} trumps are too few for a poignée (10 at least)", cards.len()));
    }
    Ok(cards)
}

/// Fields we do not understand are not an error (TarotClub adds e.g. a `score` to some files),
/// but say that they were ignored.
pub(super) fn note_ignored_fields(object: &Map<String, Value>, known: &[&str], prefix: &str, inferred: &mut Vec<String>) {
    for key in object.keys() {
        if !known.contains(&key.as_str()) {
            inferred.push(format!("Ignored the field {prefix}{key}, which the import does not use."));
        }
    }
}

/// Removes every `,` that is followed (after white space) by `}` or `]`, outside strings.
/// Returns the text and the number of commas removed.
pub(super) fn remove_trailing_commas(text: &str) -> (String, usize) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if c == ',' {
            let following = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(following, Some('}') | Some(']')) {
                removed += 1;
                continue;
            }
        }
        out.push(c);
    }
    (out, removed)
}

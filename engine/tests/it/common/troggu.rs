//! A second scorer for Troggu, written by hand from the sources the rule file names, with no rule file
//! and nothing from the engine but the record's types: Board Game Arena's game help (BGA), The
//! Incompleat Gamester (IG), the Eisten-Stalden rules (JV), gamerules.com (GR) and pagat (P). It reads
//! a finished deal's events, plays the tricks out itself and counts the cards, so that the engine can be
//! checked against it.
//!
//! What the sources say, and this scorer does:
//! - 62 cards: cups and coins (H, D) K Q C J 1 ... 6, swords and batons (S, C) K Q C J 10 ... 5 (JV),
//!   21 trumps and the Bättler, "usually played as the highest trump" (P; BGA: "The Fool, XXI, XX,
//!   ..., II, I"). A trick goes to the highest trump, else the highest card of the suit led.
//! - Values, counted card by card: the Bättler, XXI, I and kings 5, queens 4, cavaliers 3, jacks 2, all
//!   others 1 (GR), 114 in all (JV).
//! - The bidding, one turn each: the last Tapp or Solo bid is the contract (BGA). The Tappist lays away
//!   as many cards as the Tapp holds, into his pile; the Soloist's Tapp goes to his pile unseen (BGA).
//!   When all pass, a Misère: each for himself, the Tapp to nobody (IG).
//! - "The aim of the game is to win more than half the points in tricks" (BGA): the declarer wins with
//!   58 or more, the others with 56 or fewer for him; 57 each, "neither side wins" (P "Scoring").
//! - The stakes (P "Scoring"): each opponent pays the winning declarer 10 Rappen, or a losing declarer
//!   pays each opponent 10; doubled when the losers took 30 card points or fewer, trebled when they won
//!   no trick; doubled again in a Solo. 57 each, nothing is paid.
//! - In a Misère, whoever took the most card points pays 10 to each other player (P "Misere"): tied for
//!   the most, each of them pays the players not tied. Everyone else wins.
//! - The Tappist or Soloist leads the first trick (IG); in a Misère the dealer (IG "Misere"), or,
//!   with the option `misere_lead` set to "first-hand", the player to the dealer's right (P "Misere").
//! - The Bättler withheld (P "Play"): a player whose only trump left is the Bättler need not play it
//!   when trumps are led or he has none of the suit led; playing another card there, he has withheld
//!   it, and it "loses all its trick-taking power": he keeps it to his card to the last trick (led
//!   there, the next card sets the suit), it goes to his side's pile, and the winner of the last trick
//!   gets "a low value card" from that pile for it, worth 1 (every card but the counters is). His own
//!   side taking the last trick, nothing changes hands.
//!
//! In Grächen (P "Variations", `troggu-graechen`):
//! - The Tapp is dealt in one packet after the first round: at five 5 + Tapp + 6 or 6 + Tapp + 5, as
//!   the dealer chooses; at four 7 + Tapp + 7, so 14 cards each and a Tapp of 6. At three and six
//!   the packets of Visp (P's table), the Tapp after the first round.
//! - No Misère: when all pass, the deal is void and passes on.
//! - The stake is 5 Rappen, doubled only when the losers took 20 card points or fewer.
//! - The four kings may not be laid away alone; all seven 5-point cards may be, together.
//!
//! In St Niklaus (P "Variations", `troggu-st-niklaus`):
//! - The stake is 5 Rappen, doubled when the losers took 31 card points or fewer.
//! - The seven 5-point cards laid away only all together, as in Grächen.
//! - In a Misère the player with the fewest card points wins the stake from each other player; tied
//!   for the fewest, each of them wins it from each player not tied. They win; the others lose.
//!
//! At seven or eight (P "Special rules for 7 or 8 players", `troggu-7-8`):
//! - A Tapp of 6, 8 or 7 cards each (P "Players and deal").
//! - The Tappist calls a trump (any but the XXI and the Bättler); its holder is his partner, and a
//!   trump of his own or in the Tapp leaves him alone. A Soloist calls nothing.
//! - Each opponent pays (or is paid) the stake as above; the partner receives (or pays) twice it, and
//!   the Tappist the balance: his side's card points decide.
//! - All passing: the holder of the Bättler plays a Tapp, else (it lies in the Tapp) the holder of the
//!   I; a Misère only when both lie in the Tapp.

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// 1 to 21, and 22 for the Bättler.
    Trump(u8),
    /// A suit letter (S H D C) and a rank from 1 to 14 (K = 14, Q = 13, C = 12, J = 11).
    Suited(char, u8),
}

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Trump(22);
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    pub fn value(self) -> i64 {
        match self {
            Card::Trump(1 | 21 | 22) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    fn strength(self) -> u8 {
        match self {
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) | Card::Trump(r) => r,
        }
    }
}

/// Where the game is played: Visp (P's main rules, `troggu` and `troggu-7-8`), Grächen or St Niklaus
/// (P "Variations").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Village {
    #[default]
    Visp,
    Graechen,
    StNiklaus,
}

impl Village {
    fn of(rec: &GameRecord) -> Village {
        match &*rec.ruleset {
            "troggu-graechen" => Village::Graechen,
            "troggu-st-niklaus" => Village::StNiklaus,
            _ => Village::Visp,
        }
    }

    /// The basic stake, in Rappen.
    fn stake(self) -> i64 {
        if self == Village::Visp {
            10
        } else {
            5
        }
    }

    /// The losers' card points at or below which the stake is doubled.
    fn double_at(self) -> i64 {
        match self {
            Village::Visp => 30,
            Village::Graechen => 20,
            Village::StNiklaus => 31,
        }
    }
}

/// What one deal came to.
#[derive(Debug, Default)]
pub struct Scored {
    pub village: Village,
    /// Everyone passed in Grächen: no Misère, the deal is void.
    pub annulled: bool,
    /// The players' packets at five in Grächen: 5 or 6 cards first.
    pub graechen_first_packet: Option<usize>,
    /// The seven 5-point cards laid away together.
    pub fives_discarded: bool,
    /// The losers' card points of a contract won or lost.
    pub losers_points: Option<i64>,
    /// "tapp", "solo" or "misere".
    pub contract: String,
    pub declarer: Option<String>,
    /// Every player's card points (his side's, his own in a Misère), what the stakes come to for him
    /// (received less paid), and whether he won.
    pub points: BTreeMap<String, i64>,
    pub paid: BTreeMap<String, i64>,
    pub winners: BTreeMap<String, bool>,
    /// What each opponent pays the declarer (negative: is paid by him), and how many times the basic
    /// stake that is: 1, 2 (the losers took 30 or fewer) or 3 (no trick), doubled in a Solo.
    pub stake: Option<(i64, i64)>,
    /// A Misère led by first hand (the option misere_lead).
    pub misere_led_by_first_hand: bool,
    /// How many players were tied for the most card points in a Misère (for the fewest in St
    /// Niklaus, where they win).
    pub misere_top: usize,
    /// The declarer's card points, his side's (none in a Misère).
    pub declarer_points: Option<i64>,
    /// The partner the Tappist called (seven or eight), where the card called was another's.
    pub partner: Option<String>,
    /// Everyone passed, and this card's holder had to play a Tapp (seven or eight).
    pub forced_by: Option<&'static str>,
    /// The four kings laid away together.
    pub kings_discarded: bool,
    pub wrong_leader: Option<String>,
    /// Who withheld the Bättler, and how its last trick went.
    pub withheld: Option<Withheld>,
    /// A play the sources forbid: the withheld Bättler played before the last trick.
    pub unlawful: Option<String>,
}

/// The Bättler withheld: how its last trick went.
#[derive(Debug)]
pub struct Withheld {
    /// Its holder led the last trick with it.
    pub led: bool,
    /// His side took the last trick: no card was given for it.
    pub own_side: bool,
}

const BATTLER: Card = Card::Trump(22);

pub fn score(rec: &GameRecord) -> Scored {
    let names = &rec.players;
    let n = names.len();
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let dealer = seat(&rec.dealer);
    // Play goes to the right: the player after the dealer in the record's list is first hand.
    let first_hand = (dealer + 1) % n;
    let village = Village::of(rec);
    let misere_leader = match rec.options.get("misere_lead").and_then(|v| v.as_str()) {
        None | Some("dealer") => dealer,
        Some("first-hand") => first_hand,
        Some(other) => panic!("misere_lead {other}"),
    };
    let mut tapp: Vec<Card> = vec![];
    let mut hands: Vec<Vec<Card>> = vec![vec![]; n];
    let mut declarer: Option<(usize, String)> = None;
    let mut discard: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    let mut packets: Vec<(Option<usize>, usize)> = vec![];
    let mut called: Option<Card> = None;
    let mut caller: Option<usize> = None;
    let mut discarder: Option<usize> = None;
    for e in &rec.events {
        match e {
            Event::Deal { hands: dealt, dog, packets: order, .. } => {
                tapp = dog.iter().map(|c| Card::parse(c)).collect();
                packets = order.iter().map(|p| (p.to.as_ref().map(|to| seat(to)), p.cards.len())).collect();
                for (p, name) in names.iter().enumerate() {
                    hands[p] = dealt[name.as_str()].iter().map(|c| Card::parse(c)).collect();
                }
            }
            Event::Bid { player, bid } => {
                if &**bid != "pass" {
                    declarer = Some((seat(player), bid.to_string()));
                }
            }
            Event::Discard { player, cards } => {
                discarder = Some(seat(player));
                discard = cards.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Call { player, card } => {
                assert!(n >= 7, "a call at seven or eight only");
                caller = Some(seat(player));
                called = Some(Card::parse(card));
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Troggu has no such event: {other:?}"),
        }
    }
    // All passing at seven or eight: the Bättler's holder, else the I's, must play a Tapp.
    let mut forced_by = None;
    if declarer.is_none() && n >= 7 {
        for (card, name) in [(BATTLER, "the Bättler"), (Card::Trump(1), "the I")] {
            if let Some(p) = hands.iter().position(|h| h.contains(&card)) {
                declarer = Some((p, "tapp".into()));
                forced_by = Some(name);
                break;
            }
        }
    }
    // Another player laying away or calling than the Tappist the sources name: a difference.
    let who = |p: Option<usize>| p.map_or("nobody".to_string(), |p| names[p].clone());
    let mut wrong_taker = None;
    for (what, p) in [("lays away", discarder), ("calls", caller)] {
        if p.is_some() && p != declarer.as_ref().map(|d| d.0) {
            wrong_taker = Some(format!("{} {what}, and the Tappist is {}", who(p), who(declarer.as_ref().map(|d| d.0))));
        }
    }
    if let Some(c) = called {
        assert!(!matches!(c, Card::Trump(21 | 22) | Card::Suited(..)), "a trump but the XXI and the Bättler is called");
    }
    // The holder of the card called, if not the Tappist.
    let partner = called.and_then(|c| hands.iter().position(|h| h.contains(&c))).filter(|&p| Some(p) != declarer.as_ref().map(|d| d.0));
    let hand = if village == Village::Graechen && n == 4 { 14 } else { [18, 13, 11, 9, 8, 7][n - 3] };
    assert_eq!(tapp.len(), 62 - n * hand, "the Tapp");
    let mut s = Scored { village, ..Scored::default() };
    // Grächen's deal, where the record gives its order: a round of packets from first hand, the Tapp
    // in one packet, then the rest round by round.
    if village == Village::Graechen && !packets.is_empty() {
        let orders: Vec<Vec<usize>> = match n {
            3 => vec![vec![6, 6, 6]],
            4 => vec![vec![7, 7]],
            5 => vec![vec![5, 6], vec![6, 5]],
            _ => vec![vec![4, 5]],
        };
        let dealt = |sizes: &[usize]| -> Vec<(Option<usize>, usize)> {
            let round = |k: usize| (1..=n).map(|i| (Some((dealer + i) % n), k)).collect::<Vec<_>>();
            let mut out = round(sizes[0]);
            out.push((None, tapp.len()));
            for &k in &sizes[1..] {
                out.extend(round(k));
            }
            out
        };
        match orders.iter().find(|o| dealt(o) == packets) {
            Some(o) => s.graechen_first_packet = (n == 5).then_some(o[0]),
            None => s.unlawful = Some(format!("Grächen's deal at {n} is {orders:?}, the Tapp after the first round; the record deals {packets:?}")),
        }
    }
    if declarer.is_none() && village == Village::Graechen {
        // No Misère: the deal passes on, and nothing is played.
        s.annulled = true;
        if !plays.is_empty() && s.unlawful.is_none() {
            s.unlawful = Some("all passed in Grächen, and cards are played".into());
        }
        return s;
    }
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(n).collect();
    assert!(tricks.len() == hand && tricks.iter().all(|t| t.len() == n), "{hand} tricks of {n}");

    s.contract = declarer.as_ref().map_or("misere".into(), |d| d.1.clone());
    s.declarer = declarer.as_ref().map(|d| names[d.0].clone());
    s.partner = partner.map(|p| names[p].clone());
    s.forced_by = forced_by;
    s.unlawful = s.unlawful.take().or(wrong_taker);
    if declarer.as_ref().is_some_and(|d| d.1 == "tapp") && n >= 7 && called.is_none() && s.unlawful.is_none() {
        s.unlawful = Some(format!("{} plays a Tapp at {n} and calls nothing", who(declarer.as_ref().map(|d| d.0))));
    }
    let attack = |p: usize| declarer.as_ref().is_some_and(|d| d.0 == p) || partner == Some(p);
    let kings = discard.iter().filter(|c| matches!(c, Card::Suited(_, 14))).count();
    let trull = discard.iter().filter(|c| matches!(c, Card::Trump(1 | 21 | 22))).count();
    s.kings_discarded = kings == 4;
    s.fives_discarded = kings + trull == 7;
    // What may be laid away: in Visp no Mund, Bagat or Bättler, and kings only all four; in Grächen
    // and St Niklaus the seven 5-point cards only all together.
    let lawful = if village == Village::Visp { trull == 0 && (kings == 0 || kings == 4) } else { kings + trull == 0 || kings + trull == 7 };
    if !lawful && s.unlawful.is_none() {
        s.unlawful = Some(format!("{} lays away {kings} king(s) and {trull} of the Mund, the Bagat and the Bättler", who(discarder)));
    }
    let mut pile = vec![0i64; n];
    let mut tricks_won = vec![0i64; n];
    match &declarer {
        Some((d, c)) if c == "tapp" => {
            pile[*d] += discard.iter().map(|c| c.value()).sum::<i64>();
            hands[*d].extend(tapp.iter().copied());
            hands[*d].retain(|c| !discard.contains(c));
        }
        Some((d, _)) => pile[*d] += tapp.iter().map(|c| c.value()).sum::<i64>(),
        None => {}
    }
    // The declarer against the rest; in a Misère, each for himself.
    let same_side = |p: usize, q: usize| match &declarer {
        Some(_) => attack(p) == attack(q),
        None => p == q,
    };
    let mut withheld_by: Option<usize> = None;
    let mut leader = declarer.as_ref().map_or(misere_leader, |d| d.0);
    s.misere_led_by_first_hand = declarer.is_none() && misere_leader == first_hand;
    for (i, t) in tricks.iter().enumerate() {
        if t[0].0 != leader && s.wrong_leader.is_none() {
            s.wrong_leader = Some(format!("trick {} led by {}, not {}", i + 1, names[t[0].0], names[leader]));
        }
        // The Bättler withheld before this trick has no power: it sets no suit, and takes nothing.
        let holder = withheld_by;
        let powerless = |&(p, c): &(usize, Card)| c == BATTLER && holder == Some(p);
        let Some(&first) = t.iter().find(|play| !powerless(play)) else { panic!("a trick of the Bättler alone") };
        let led = first.1;
        for &(p, c) in t.iter().filter(|&&play| play != t[0]) {
            // A trump due of him (trumps led, or none of the suit led), the Bättler his only trump, and
            // another card played: he has withheld it.
            let trumps: Vec<Card> = hands[p].iter().copied().filter(|c| matches!(c, Card::Trump(_))).collect();
            let none_led = !hands[p].iter().any(|h| matches!((h, led), (Card::Suited(a, _), Card::Suited(b, _)) if *a == b));
            let due = matches!(led, Card::Trump(_)) || none_led;
            if due && trumps == [BATTLER] && c != BATTLER && withheld_by.is_none() {
                withheld_by = Some(p);
            }
        }
        let mut best = first;
        for &(p, c) in t.iter().filter(|play| !powerless(play)) {
            let beats = match (c, best.1) {
                (Card::Trump(x), Card::Trump(b)) => x > b,
                (Card::Trump(_), _) => true,
                (_, Card::Trump(_)) => false,
                (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > best.1.strength(),
            };
            if beats {
                best = (p, c);
            }
        }
        pile[best.0] += t.iter().filter(|play| !powerless(play)).map(|&(_, c)| c.value()).sum::<i64>();
        if let Some(&(h, _)) = t.iter().find(|play| powerless(play)) {
            if i + 1 != tricks.len() && s.unlawful.is_none() {
                s.unlawful = Some(format!("{} played the Bättler withheld to trick {}, not to the last", names[h], i + 1));
            }
            // To his side's pile; a low card, worth 1, from it to the winner of another side.
            pile[h] += BATTLER.value();
            let own_side = same_side(h, best.0);
            if !own_side {
                pile[h] -= 1;
                pile[best.0] += 1;
            }
            s.withheld = Some(Withheld { led: t[0].0 == h, own_side });
        }
        for &(p, c) in t.iter() {
            hands[p].retain(|&h| h != c);
        }
        tricks_won[best.0] += 1;
        leader = best.0;
    }
    if let (Some(h), None) = (withheld_by, &s.withheld) {
        s.unlawful = Some(format!("{} withheld the Bättler and never played it", names[h]));
    }
    match &declarer {
        Some((d, contract)) => {
            let own: i64 = (0..n).filter(|&p| attack(p)).map(|p| pile[p]).sum();
            s.declarer_points = Some(own);
            let made = own >= 58;
            let drawn = own == 57;
            let won = |side: bool| (0..n).filter(|&p| attack(p) == side).map(|p| tricks_won[p]).sum::<i64>();
            let (losers_points, losers_tricks) = if made { (114 - own, won(false)) } else { (own, won(true)) };
            s.losers_points = Some(losers_points);
            let times = (if losers_tricks == 0 {
                3
            } else if losers_points <= village.double_at() {
                2
            } else {
                1
            }) * if contract == "solo" { 2 } else { 1 };
            let stake = if drawn {
                0
            } else if made {
                village.stake() * times
            } else {
                -village.stake() * times
            };
            s.stake = Some((stake, times));
            let opponents = (0..n).filter(|&p| !attack(p)).count() as i64;
            for (p, name) in names.iter().enumerate() {
                let theirs = if attack(p) { own } else { 114 - own };
                s.points.insert(name.clone(), theirs);
                // The partner's twice the stake comes out of the Tappist's.
                let paid = if p == *d {
                    stake * opponents - if partner.is_some() { 2 * stake } else { 0 }
                } else if attack(p) {
                    2 * stake
                } else {
                    -stake
                };
                s.paid.insert(name.clone(), paid);
                s.winners.insert(name.clone(), if attack(p) { made } else { !made && !drawn });
            }
        }
        None if village == Village::StNiklaus => {
            let low = *pile.iter().min().expect("players");
            let tied = pile.iter().filter(|&&x| x == low).count() as i64;
            s.misere_top = tied as usize;
            for (p, name) in names.iter().enumerate() {
                s.points.insert(name.clone(), pile[p]);
                // Each of the tied for the fewest wins the stake from each player not tied.
                let paid = if pile[p] == low { village.stake() * (n as i64 - tied) } else { -village.stake() * tied };
                s.paid.insert(name.clone(), paid);
                s.winners.insert(name.clone(), pile[p] == low);
            }
        }
        None => {
            let top = *pile.iter().max().expect("players");
            let tied = pile.iter().filter(|&&x| x == top).count() as i64;
            s.misere_top = tied as usize;
            for (p, name) in names.iter().enumerate() {
                s.points.insert(name.clone(), pile[p]);
                // Each of the tied pays 10 to each player not tied.
                let paid = if pile[p] == top { -10 * (n as i64 - tied) } else { 10 * tied };
                s.paid.insert(name.clone(), paid);
                s.winners.insert(name.clone(), pile[p] != top);
            }
        }
    }
    s
}

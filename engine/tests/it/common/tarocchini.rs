//! A second scorer for Tarocchini (Ottocento, the Bolognese game of four in partnerships), written by
//! hand from the published sources, with no rule file and nothing from the engine but the record's
//! types. It reads a finished deal's events (the deal, the discard, the declarations, the cards
//! played), plays the tricks out itself and counts each side's cards, so that the engine can be
//! checked against it. The sources, as read:
//! - MB, M. Barilli, *Il Tarocco Bolognese* (tournament rules, 5th ed. 2010), ch. 2 §2.1
//!   (taroccobolognese.mauriziobarilli.it/tar/capit2/cap2.htm): the *carte di valore* "purché accoppiate
//!   ad uno Scartino": each king, the Angel, the World, the Bégato and the Matto with a scartino 5,
//!   a queen 4, a cavalier 3, a jack 2, "Due Scartini qualsiasi uniti tra loro: 1 Punto"; two valued
//!   cards together "sommando il loro singolo valore ... e sottraendo una unità" (the Bégato with a
//!   cavalier 7). So a pile counted in pairs is its cards' values (a scartino 1) less one a pair.
//! - MP, MB's "Computo dei punteggi" (…/tar/punteggi/punteggi.htm): counted in order "Le Combinazioni
//!   di tipo Associativo, ... Sequenziale, Il Conto degli Scartini, L'Ultima Presa, Gli Accusi"; the
//!   five *cricche*, "un minimo di tre esemplari per schiera": the tarocchi (Angelo, Mondo, Bégato,
//!   Matto), the kings, the queens, the cavaliers, the jacks, worth "18 punti per ogni Tarocco, 17 ...
//!   Re, 14 ... Regina, 13 ... Cavallo, 12 ... Fante", the five together "148 punti ... Mezzo
//!   Criccone" (so a whole schiera of four is twice its three: 2 x (18 + 17 + 14 + 13 + 12) = 148);
//!   "fare Criccone significa avere 3 o più Cricche, premio che raddoppia il punteggio" of the cricche.
//! - MBP, the same book page by page (yumpu, pp. 50, 51): the *sequenze* "realizzabili solo in presenza
//!   del Capostipite di ogni Famiglia (Angelo per la Grande, Re per i 4 Semi ...)"; for the Numeri
//!   della Grande (Angelo, Mondo, Sole, Luna) "le stesse regole vigenti per i quattro Semi": one
//!   member "salvo il Capostipite" may be skipped "in modo naturale"; a missing member may be stood for
//!   by a contatore (the Bégato, the Matto) "per raggiungere il numero minimo di 3 carte"; "1 o 2
//!   Contatori" may be added, +5 each; the Numeri di Scavezzo follow from the Sedici, +5 each, and "al
//!   Cinque - da uno a quattro Mori", +5 each; the whole Grande "dall'Angelo al Bégato ... 21 carte e
//!   ad essa può essere aggiunto il Matto come Contatore".
//! - LT, "D'un dilettante della partita a tarocchi" (…/tar/lettera/lettera.htm), on what a sequence is
//!   worth: "le carte, che segnano ... valgono per ciascheduna cinque punti meno una. Tale regola vale
//!   tanto nelle sequenze, come nella Grande, nelli assi, e ne' mori" (king, queen, cavalier, jack and
//!   ace of swords: "sono cinque, una si leva, e restano quattro ... venti punti"). So a sequence of
//!   n cards is worth 5 (n - 1): 10 for three, 5 a card more.
//! - DM, Dummett and McLeod on Pisarri (1754), and PCS, "Computo ordinario di cricche e sequenze":
//!   the whole Grande with both contatori is 105 (22 cards, 5 x 21), and a Grande is worth 105 less 5
//!   for each card above its break (the *scavezza*) that the other side holds; Pisarri's Grande of
//!   seven, the World skipped and the Matto standing for the 14 (Angel, Sun, Moon, 16, 15, Matto, 13),
//!   is 30, and PCS's example has the two contatori stand for two missing trumps of one Grande.
//! - MBT, the 18th-century treatise appended to MB (yumpu p. 89): with no criccone and three
//!   sequences or more "si debbono solo raddoppiare li punti delle Sequenze", with a criccone and two
//!   sequences "si raddoppiano solamente li punti del Criccone": each kind doubles only its own.
//! - B, Bunbury's rules of Ottocento: "card points are counted in pairs of cards, subtracting 1 point for
//!   every pair. There is then an additional 6 points awarded for winning the last trick bringing the
//!   total to 93 points"; the first side to 800; "Some points are actually scored during play".
//! - W, Wikipedia's Tarocchini, "Ottocento": four in two partnerships opposite; 15 cards each, the
//!   dealer two more, which he lays away; "The discards are counted as points to the dealer's side,
//!   unless they make no tricks at all during the card play in which case the discarded cards must be
//!   surrendered to the opponents"; the Papi (the Moors) equal, "the last one played is the highest";
//!   the Fool "can't beat any cards and is played as an excuse", and "The Fool's player gives a low
//!   valued card to the trick's winner (only if it is an opponent)". TB (gambiter, "Tarocco
//!   Bolognese"): swords and batons rank "King (highest), Queen, Knight, Knave, 10 to 6, and Ace
//!   (lowest). For cups and coins it is King (highest), Queen, Knight, Knave, Ace, and 6 to 10".
//! - P (pagat, Ottocento): "players can score by declaring card combinations held in their hands at the
//!   start of play, as well as for combinations taken in tricks"; AO ("L'accusa ordinaria fuori
//!   piatto"): declared combinations earn "gli stessi punteggi previsti dal normale computo".
//! - MBO and MB4 (MB §4.1.1 *Ottocento*, yumpu p. 45 and the site's ch. 4): near 800, a player whose
//!   *Accuso in Mano* brings his side to 800 may "chiamarsi fuori": his side wins and the hand is not
//!   played on. The dealer first, on his first 15 cards, the last two still face down; then each
//!   player at his own turn, a partner adding his accusi to his partner's; not the dealer once he
//!   has taken his last two cards.
//! - MB3 (ch. 3 §3.4): the *Primo di Mano*, to the dealer's right, leads the first trick.
//!
//! The readings it makes where the sources are short:
//! - The record lists the players in their order of play, each followed by the one to his right
//!   (play is anticlockwise); first hand is the one after the dealer; partners sit opposite, the first
//!   and third against the second and fourth.
//! - A sequence is its head and its members in their order, each member held or stood for, until one
//!   is missing that nothing stands for; then the contatori not used add a card each. Of the members
//!   next to the head (the World, Sun and Moon; a suit's queen, cavalier and jack) one may be missing
//!   with nothing standing for it; a contatore may stand for any other missing member, as often as
//!   there are contatori (PCS's Grande has both stand for two trumps): so the head and both contatori
//!   make a sequence of three. The Moors follow the 5 (held or stood for) in no order, each held one
//!   card more. So a sequence counts its head, the members it reaches and every contatore of the pile.
//! - A contatore counts in every combination it fits: the tarocchi's cricca, the Grande and each suit's
//!   sequence (the treatise's worked count, MBT p. 125, counts both contatori in the sequence of the
//!   aces and in that of swords).
//! - The Matto kept from a trick the other side took leaves that side an empty card short: its player's
//!   side gives one, a scartino that is in no combination (W: "a low valued card"). A side that took
//!   no trick has none to give and owes it: the Matto alone counts its 5 less one, and the other side's
//!   pile counts as if the card had been given, so that the two make the pack's 87 (B's 93 less the
//!   last trick). The Matto keeps to its player's side in the last trick too.
//! - The discards go with the dealer's side's pile, and so count in its combinations as in its card
//!   points; to the opponents where that side took no trick (W).
//! - An *accuso* is valued as the pile is at the end (AO), cricche and sequences, each kind doubled on
//!   its own, and added to its declarer's side; so is the dealer's call on his first 15 cards.
//! - A hand cut short by a call-out counts what the sides took: no trick was finished, so the dealer's
//!   side took none, and its discards, if he had laid them away, go to the opponents (W, as it reads);
//!   nobody takes the last trick; the sides' accusi count. The caller's side wins the match.
//! - Each player's score is his side's count for the hand: cricche, sequences, card points, the last
//!   trick, its accusi (MP's order).
//!
//! Options of the engine's rule file, taken as variants of the count: `suit_sequences = "not-counted"`
//! (only the Grande is a sequence), `moors_aces = "sequences"` (the Moors and the aces each a sequence
//! of their own, headless, three of them or two and a contatore, with every contatore: LT names them,
//! and a Tarocchino program, mcts4j's `State.getPoints`, counts them so), `suit_ace = "counted"` (a
//! suit's ace one card more to its sequence of three or more: LT's swords).

use std::collections::{BTreeMap, BTreeSet};

use tarot_engine::{Event, GameRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    /// T1, the Bégato, to T21, the Angel; the Moors are T2 to T5.
    Trump(u8),
    Matto,
    /// A suit letter (S and C long, H and D round) and a rank: 1 the ace, 6 to 10, J 11, C 12, Q 13,
    /// K 14.
    Suited(char, u8),
}

const ANGEL: Card = Card::Trump(21);
const WORLD: Card = Card::Trump(20);
const BEGATO: Card = Card::Trump(1);

impl Card {
    pub fn parse(code: &str) -> Card {
        let code = code.trim().to_ascii_uppercase();
        if code == "EX" {
            return Card::Matto;
        }
        match super::card_code(&code) {
            super::Code::Trump(n) => Card::Trump(n),
            super::Code::Suited(suit, rank) => Card::Suited(suit, rank),
        }
    }

    /// Its value with a scartino (MB §2.1): the tarocchi and kings 5, queens 4, cavaliers 3, jacks 2;
    /// a scartino 1.
    pub fn value(self) -> i64 {
        match self {
            Card::Matto | Card::Trump(1 | 20 | 21) | Card::Suited(_, 14) => 5,
            Card::Suited(_, 13) => 4,
            Card::Suited(_, 12) => 3,
            Card::Suited(_, 11) => 2,
            _ => 1,
        }
    }

    fn is_contatore(self) -> bool {
        self == BEGATO || self == Card::Matto
    }

    fn is_moor(self) -> bool {
        matches!(self, Card::Trump(2..=5))
    }

    /// Its strength among the trumps (the Moors equal) or in its suit (TB: cups and coins rank the ace
    /// above the 6, the 10 lowest).
    fn strength(self) -> u8 {
        match self {
            Card::Trump(2..=5) => 2,
            Card::Trump(n) => n,
            Card::Suited('H' | 'D', r) if r <= 10 => 11 - r,
            Card::Suited(_, r) => r,
            Card::Matto => 0,
        }
    }
}

type Cards = BTreeSet<Card>;

/// Which count: the engine's options as variants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    pub suit_sequences: bool,
    pub moors_aces: bool,
    pub suit_ace: bool,
}

/// The count of MB: the Grande and the four suits' sequences, no sequence of Moors or aces, no ace.
pub const MB: Variant = Variant { suit_sequences: true, moors_aces: false, suit_ace: false };

/// One sequence found, for the coverage table.
#[derive(Clone, Debug, Default)]
pub struct Sequence {
    /// "Grande", a suit letter, "Moors" or "aces".
    pub family: &'static str,
    pub cards: usize,
    /// A member next to the head missing, with nothing standing for it.
    pub skipped: bool,
    /// Contatori standing for missing members.
    pub stood_for: usize,
    /// Moors added after the 5.
    pub moors: usize,
    /// The suit's ace added.
    pub ace: bool,
}

/// The combinations of a set of cards, counted as at the end of a hand (MP).
#[derive(Clone, Debug, Default)]
pub struct Combinations {
    /// How many of each schiera: tarocchi, kings, queens, cavaliers, jacks.
    pub schiere: [usize; 5],
    pub cricche: i64,
    pub sequences: Vec<Sequence>,
    pub sequence_points: i64,
}

impl Combinations {
    pub fn points(&self) -> i64 {
        self.cricche + self.sequence_points
    }

    pub fn cricche_made(&self) -> usize {
        self.schiere.iter().filter(|&&n| n >= 3).count()
    }
}

/// A family's sequence in `cards`: `members` after the head in their order, of which one of the first
/// `skippable` may be missing with nothing for it; a contatore stands for any other missing member.
/// Returns the members held that it reaches, whether the skip was used, the contatori standing for
/// members, and whether it reached its last member. Taking the skip at the first missing member it
/// may cover, and a contatore at each other, reaches furthest: the skip can cover only one of the
/// first members, which come before every other gap.
fn reach(cards: &Cards, members: &[Card], skippable: usize, mut contatori: usize) -> (usize, bool, usize, bool) {
    let (mut held, mut skipped, mut stood) = (0, false, 0);
    for (i, m) in members.iter().enumerate() {
        if cards.contains(m) {
            held += 1;
        } else if !skipped && i < skippable {
            skipped = true;
        } else if contatori > 0 {
            contatori -= 1;
            stood += 1;
        } else {
            return (held, skipped, stood, false);
        }
    }
    (held, skipped, stood, true)
}

/// The cricche and sequences of `cards` (MP; MBP pp. 50, 51; LT; MBT p. 89).
pub fn combinations(cards: &Cards, v: Variant) -> Combinations {
    let mut c = Combinations::default();
    // The cricche, each schiera of three at its value, of four twice that; three or more doubled.
    let tarocchi = [ANGEL, WORLD, BEGATO, Card::Matto].iter().filter(|x| cards.contains(x)).count();
    let rank = |r: u8| cards.iter().filter(|x| matches!(x, Card::Suited(_, q) if *q == r)).count();
    c.schiere = [tarocchi, rank(14), rank(13), rank(12), rank(11)];
    let values = [18, 17, 14, 13, 12];
    let sum: i64 = (0..5).filter(|&i| c.schiere[i] >= 3).map(|i| values[i] * if c.schiere[i] == 4 { 2 } else { 1 }).sum();
    c.cricche = sum * if c.cricche_made() >= 3 { 2 } else { 1 };

    let contatori = cards.iter().filter(|x| x.is_contatore()).count();
    // The Grande, from the Angel: the World, Sun and Moon (one may be skipped), the 16 to the 5 (the
    // engine's T17 to T6), then the Moors.
    if cards.contains(&ANGEL) {
        let members: Vec<Card> = (6..=20).rev().map(Card::Trump).collect();
        let (held, skipped, stood, whole) = reach(cards, &members, 3, contatori);
        let moors = if whole { cards.iter().filter(|x| x.is_moor()).count() } else { 0 };
        let n = 1 + held + moors + contatori;
        if n >= 3 {
            c.sequences.push(Sequence { family: "Grande", cards: n, skipped, stood_for: stood, moors, ace: false });
        }
    }
    // Each suit's, from its King: queen, cavalier, jack (one may be skipped).
    if v.suit_sequences {
        for (suit, family) in [('S', "S"), ('C', "C"), ('H', "H"), ('D', "D")] {
            if !cards.contains(&Card::Suited(suit, 14)) {
                continue;
            }
            let members = [Card::Suited(suit, 13), Card::Suited(suit, 12), Card::Suited(suit, 11)];
            let (held, skipped, stood, _) = reach(cards, &members, 3, contatori);
            let mut n = 1 + held + contatori;
            if n < 3 {
                continue;
            }
            let ace = v.suit_ace && cards.contains(&Card::Suited(suit, 1));
            n += ace as usize;
            c.sequences.push(Sequence { family, cards: n, skipped, stood_for: stood, moors: 0, ace });
        }
    }
    // The Moors' and the aces', headless: three, or two and a contatore, with every contatore.
    if v.moors_aces {
        let moors = cards.iter().filter(|x| x.is_moor()).count();
        let aces = cards.iter().filter(|x| matches!(x, Card::Suited(_, 1))).count();
        for (family, k) in [("Moors", moors), ("aces", aces)] {
            if k >= 3 || (k == 2 && contatori > 0) {
                c.sequences.push(Sequence { family, cards: k + contatori, ..Sequence::default() });
            }
        }
    }
    let sum: i64 = c.sequences.iter().map(|s| 5 * (s.cards as i64 - 1)).sum();
    c.sequence_points = sum * if c.sequences.len() >= 3 { 2 } else { 1 };
    c
}

/// A declaration of the deal: who, which, the cards shown and what they are worth.
#[derive(Clone, Debug)]
pub struct Declared {
    pub player: usize,
    pub kind: String,
    pub cards: Vec<Card>,
    pub combinations: Combinations,
    /// Made after the dealer's discard.
    pub after_discard: bool,
}

/// What one deal came to, with the facts the comparison tallies.
#[derive(Debug, Default)]
pub struct Scored {
    /// Every player's score: his side's count for the hand.
    pub scores: BTreeMap<String, i64>,
    /// Each side's card points (the first and third seats', the second and fourth's).
    pub card_points: [i64; 2],
    /// Each side's combinations at the end, its pile's cards.
    pub piles: [Combinations; 2],
    pub tricks: [usize; 2],
    /// The dealer's seat, and his side.
    pub dealer: usize,
    pub dealer_side: usize,
    pub declared: Vec<Declared>,
    /// The side's count of its accusi.
    pub accusi: [i64; 2],
    /// Who called himself out, with which declaration; his side wins the match.
    pub called_out: Option<(String, String)>,
    /// The players who win the match by the call-out, the caller first.
    pub match_winners: Vec<String>,
    /// A call-out the sources do not allow (the side short of 800, the dealer after his discard, a
    /// card of the dealer's call among his last two).
    pub unlawful: Option<String>,
    /// The Matto: kept from a trick the other side took, by a side that took no trick, in the last
    /// trick, led.
    pub matto_exchanged: bool,
    pub matto_unpaid: bool,
    pub matto_last: bool,
    pub matto_led: bool,
    /// A trick led by another player than the one who took the trick before (or, for the first, than
    /// first hand), or played out of turn: the scorer's tricks are not the engine's.
    pub wrong_leader: Option<String>,
}

/// Scores a deal of Tarocchini from its record alone.
pub fn score(rec: &GameRecord, v: Variant) -> Scored {
    let names = &rec.players;
    assert_eq!(names.len(), 4, "four players");
    let seat = |p: &str| names.iter().position(|x| x == p).unwrap_or_else(|| panic!("player {p}"));
    let side = |p: usize| p % 2;
    let dealer = seat(&rec.dealer);
    let first_hand = (dealer + 1) % 4;
    let mut s = Scored { dealer, dealer_side: side(dealer), ..Scored::default() };

    let mut dealers_first_15: Vec<Card> = vec![];
    let mut discard: Vec<Card> = vec![];
    let mut plays: Vec<(usize, Card)> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { packets, .. } => {
                // The dealer's first 15 cards, in the order dealt.
                dealers_first_15 = packets.iter().filter(|p| p.to.as_deref() == Some(rec.dealer.as_str())).flat_map(|p| p.cards.iter().map(|c| Card::parse(c))).take(15).collect();
            }
            Event::Discard { player, cards } => {
                assert_eq!(seat(player), dealer, "only the dealer lays away");
                discard = cards.iter().map(|c| Card::parse(c)).collect();
            }
            Event::Declare { player, declaration, cards } => {
                let shown: Vec<Card> = cards.iter().map(|c| Card::parse(c)).collect();
                let combinations = combinations(&shown.iter().copied().collect(), v);
                let after_discard = !discard.is_empty();
                s.declared.push(Declared { player: seat(player), kind: declaration.to_string(), cards: shown, combinations, after_discard });
            }
            Event::Play { player, card } => plays.push((seat(player), Card::parse(card))),
            other => panic!("Tarocchini has no such event: {other:?}"),
        }
    }

    // The tricks finished, each taken by the highest trump (of the Moors the one played last), else
    // by the highest card of the suit led (the first card not the Matto's).
    let tricks: Vec<&[(usize, Card)]> = plays.chunks(4).filter(|t| t.len() == 4).collect();
    let mut winners: Vec<usize> = vec![];
    for (i, t) in tricks.iter().enumerate() {
        let leader = if i == 0 { first_hand } else { winners[i - 1] };
        if s.wrong_leader.is_none() && (0..4).any(|k| t[k].0 != (leader + k) % 4) {
            s.wrong_leader = Some(format!("trick {} played by {:?}, led by {}", i + 1, t.iter().map(|&(p, _)| names[p].as_str()).collect::<Vec<_>>(), names[leader]));
        }
        let led = t.iter().map(|&(_, c)| c).find(|&c| c != Card::Matto).expect("a trick holds a card besides the Matto");
        let beats = |c: Card, best: Card| match (c, best) {
            (Card::Matto, _) => false,
            // Equal Moors: the later played wins (W).
            (Card::Trump(_), Card::Trump(_)) => c.strength() > best.strength() || (c.is_moor() && best.is_moor()),
            (Card::Trump(_), _) => true,
            (_, Card::Trump(_)) => false,
            (Card::Suited(su, _), Card::Suited(bs, _)) => su == bs && c.strength() > best.strength(),
            (_, Card::Matto) => unreachable!(),
        };
        let mut best = *t.iter().find(|&&(_, c)| c == led).unwrap();
        for &(p, c) in t.iter().skip_while(|&&(_, c)| c != led).skip(1) {
            if beats(c, best.1) {
                best = (p, c);
            }
        }
        winners.push(best.0);
        s.tricks[side(best.0)] += 1;
    }

    // The piles: each trick to its winner's side, the Matto to its player's (for an empty card where
    // the other side took it), the discards to the dealer's side unless it took no trick.
    let mut piles: [Cards; 2] = [Cards::new(), Cards::new()];
    let mut owed = [0i64; 2];
    for (i, t) in tricks.iter().enumerate() {
        let w = side(winners[i]);
        for &(p, c) in t.iter() {
            if c == Card::Matto {
                piles[side(p)].insert(c);
                s.matto_last = i + 1 == tricks.len() && tricks.len() == 15;
                s.matto_led = t[0].1 == Card::Matto;
                if side(p) != w {
                    s.matto_exchanged = true;
                    owed[side(p)] -= 1;
                    owed[w] += 1;
                }
            } else {
                piles[w].insert(c);
            }
        }
    }
    if (0..2).any(|k| owed[k] < 0 && s.tricks[k] == 0) {
        s.matto_unpaid = true;
    }
    if !discard.is_empty() {
        let to = if s.tricks[s.dealer_side] == 0 { 1 - s.dealer_side } else { s.dealer_side };
        piles[to].extend(discard.iter().copied());
    }

    // Each side's count: cricche, sequences, card points in pairs, the last trick, the accusi.
    let mut totals = [0i64; 2];
    for k in 0..2 {
        let cards = piles[k].len() as i64 + owed[k];
        assert_eq!(cards.rem_euclid(2), 0, "whole pairs");
        s.card_points[k] = piles[k].iter().map(|c| c.value()).sum::<i64>() + owed[k] - cards / 2;
        s.piles[k] = combinations(&piles[k], v);
        totals[k] = s.piles[k].points() + s.card_points[k];
    }
    if tricks.len() == 15 {
        totals[side(winners[14])] += 6;
    }
    for d in &s.declared {
        if d.kind == "accuso" || d.kind == "fuori_mazziere" {
            s.accusi[side(d.player)] += d.combinations.points();
        }
    }

    // A call-out: lawful where the caller's side reaches 800 with what it carries and its accusi
    // (MBO), the dealer's not counted after his discard (MB4), the dealer's own on his first 15 cards.
    let carried = |p: usize| rec.standing.get(&names[p]).copied().unwrap_or(0);
    for (i, d) in s.declared.iter().enumerate() {
        let reached = match d.kind.as_str() {
            "fuori" => {
                if d.player == dealer {
                    s.unlawful = Some(format!("{} calls himself out after taking his last two cards", names[d.player]));
                }
                let accusi: i64 =
                    s.declared[..i].iter().filter(|e| e.kind == "accuso" && side(e.player) == side(d.player) && e.player != dealer).map(|e| e.combinations.points()).sum();
                carried(d.player) + accusi
            }
            "fuori_mazziere" => {
                if d.player != dealer || d.after_discard {
                    s.unlawful = Some(format!("{}'s call on his first 15 cards is not the dealer's before his discard", names[d.player]));
                }
                if let Some(c) = d.cards.iter().find(|c| !dealers_first_15.contains(c)) {
                    s.unlawful = Some(format!("the dealer's call shows {c:?}, not among his first 15 cards"));
                }
                carried(d.player) + d.combinations.points()
            }
            _ => continue,
        };
        if reached < 800 {
            s.unlawful = Some(format!("{} calls himself out at {reached}", names[d.player]));
        }
        s.called_out = Some((names[d.player].clone(), d.kind.clone()));
        s.match_winners = vec![names[d.player].clone(), names[(d.player + 2) % 4].clone()];
        break;
    }

    for (p, name) in names.iter().enumerate() {
        s.scores.insert(name.clone(), totals[side(p)] + s.accusi[side(p)]);
    }
    if s.called_out.is_none() {
        assert_eq!(tricks.len(), 15, "a hand played out");
        assert_eq!(s.card_points[0] + s.card_points[1], 87, "the pack counts 87");
    }
    s
}

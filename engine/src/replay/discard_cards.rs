//! The cards `next` lists at a discard with `require`s: those that some lawful discard of the owed
//! size holds, found by a search that puts each in the set, over the cards the requirements cannot
//! tell apart taken together, within a bound on the evaluations of the requirements.

use std::cell::Cell;

use crate::cards::{Card, CardSet};
use crate::expr::{eval, truthy, Fact};

use super::Game;

/// The most sets of cards whose requirements one `next` judges at a discard. Past it, the search
/// stops and `next` lists the cards the rules on single cards let go (`Game::discardable`) less those
/// it has shown that no lawful discard holds. The built-in rulesets stay far below it: over thousands
/// of simulated discards, the dearest judged fewer than four hundred sets (Grosstarock's dealer, whose
/// requirements tell many groups of cards apart), and those whose requirements read the cards
/// otherwise than by counting them (Cego's Zwei Leere and Zwei Verschiedene, each card searched alone)
/// fewer than two hundred. Twenty thousand sets take a few tens of milliseconds in a build without
/// optimizations.
pub const DISCARD_SEARCH_BOUND: usize = 20_000;

/// What the search for the cards of the lawful discards found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscardCards {
    /// The cards `next` lists: every card of some lawful discard, and no other when `settled`.
    pub cards: CardSet,
    /// For each card of `cards` that the search found in a lawful discard, that discard: a set of the
    /// owed size, holding it, that every rule of the discard allows.
    pub holding: Vec<(Card, CardSet)>,
    /// The sets of cards whose requirements were judged.
    pub evaluations: usize,
    /// Whether the search ended within the bound: then each card listed is in a lawful discard and
    /// each card of the hand left out is in none.
    pub settled: bool,
}

impl DiscardCards {
    /// A lawful discard holding `c`, where the search found one.
    pub fn holding(&self, c: Card) -> Option<CardSet> {
        self.holding.iter().find(|(d, _)| *d == c).map(|(_, set)| *set)
    }
}

/// Why a search stopped: it found a set, or spent its evaluations.
enum Stopped {
    Found(CardSet),
    Spent,
}

/// Cards the requirements cannot tell apart: those of the hand that may be laid away, in groups
/// (each in the order of the pack, the groups in the order of their first card), either all of
/// `unless-unavoidable` or none.
struct Groups {
    cards: Vec<Vec<Card>>,
    restricted: Vec<bool>,
}

impl<'s, 'r> Game<'s, 'r> {
    /// The cards `p` may put in his discard now, each one in some discard of the owed size that every
    /// rule of the discard allows (`forbid`, `unless-unavoidable` and every `require`). Without
    /// `require`s, what the rules on single cards let go (`discardable`), which is exactly that.
    ///
    /// With them: the cards that may be laid away are grouped so that swapping two cards of a group
    /// in a discard never changes what a requirement says of it (where the requirements read the
    /// discard and the hand kept only by counting them against sets of cards, `Expr::reads_as_sets`,
    /// the cards that lie in the same of those sets and alike in `unless-unavoidable`; else each card
    /// alone). The discard then goes by how many cards of each group it holds. The fewest cards of
    /// `unless-unavoidable` in a discard that meets every requirement is how many a lawful one holds
    /// (`discard`); for each group that no lawful discard found yet holds, the first choice of that
    /// many holding one of its cards that meets every requirement; a group is listed when one is
    /// found. At most `DISCARD_SEARCH_BOUND` sets are judged (`settled` false past it).
    pub fn discard_cards(&self, p: u8) -> DiscardCards {
        let single = self.discardable(p);
        let as_single_cards = |evaluations, settled| DiscardCards { cards: single, holding: vec![], evaluations, settled };
        let Some(d) = self.rules().discard.as_ref() else { return as_single_cards(0, true) };
        let Some(&(_, want)) = self.pending_discards.iter().find(|(q, _)| *q == p) else { return as_single_cards(0, true) };
        if d.requires.is_empty() {
            return as_single_cards(0, true);
        }
        let hand = self.hands[p as usize];
        let allowed = hand.minus(self.forbidden());
        let class = d.unless_unavoidable.as_ref().map_or(CardSet::EMPTY, |u| u.cards);
        let groups = self.groups(p, allowed, class);
        let evaluations = Cell::new(0);
        let meets = |set: CardSet| {
            evaluations.set(evaluations.get() + 1);
            if evaluations.get() > DISCARD_SEARCH_BOUND {
                return Some(Stopped::Spent);
            }
            let env = self.env(Some(p)).with_discarded(set).with_hand(hand.minus(set));
            d.requires.iter().all(|(_, cond, _)| eval(cond, &env).and_then(|v| truthy(&v)).unwrap_or(false)).then_some(Stopped::Found(set))
        };
        let first = (0..=want.min(allowed.and(class).len())).find_map(|m| groups.search(m, want - m, None, &meets).map(|s| (m, s)));
        let (fewest, first) = match first {
            None => return DiscardCards { cards: CardSet::EMPTY, holding: vec![], evaluations: evaluations.get(), settled: true },
            Some((_, Stopped::Spent)) => return as_single_cards(DISCARD_SEARCH_BOUND, false),
            Some((m, Stopped::Found(set))) => (m, set),
        };
        // The lawful discards found, and the cards of `single` shown to be in none.
        let mut found = vec![first];
        let mut none = CardSet::EMPTY;
        let mut spent = false;
        for (g, cards) in groups.cards.iter().enumerate() {
            if found.iter().any(|set| cards.iter().any(|&c| set.contains(c))) {
                continue;
            }
            match groups.search(fewest, want - fewest, Some(g), &meets) {
                Some(Stopped::Found(set)) => found.push(set),
                Some(Stopped::Spent) => {
                    spent = true;
                    break;
                }
                None => none = none.or(cards.iter().copied().collect()),
            }
        }
        // A lawful discard for each card of a group one holds: that one, the card swapped in for one of
        // its group.
        let mut holding = vec![];
        for cards in &groups.cards {
            let Some(set) = found.iter().find(|set| cards.iter().any(|&c| set.contains(c))) else { continue };
            let out = cards.iter().copied().find(|&c| set.contains(c)).map_or(CardSet::EMPTY, CardSet::single);
            holding.extend(cards.iter().map(|&c| (c, if set.contains(c) { *set } else { set.minus(out).or(CardSet::single(c)) })));
        }
        holding.sort_by_key(|(c, _)| *c);
        let cards: CardSet = holding.iter().map(|(c, _)| *c).collect();
        match spent {
            true => DiscardCards { cards: single.minus(none).or(cards), holding, evaluations: DISCARD_SEARCH_BOUND, settled: false },
            false => DiscardCards { cards, holding, evaluations: evaluations.get(), settled: true },
        }
    }

    /// The cards of `allowed` grouped (`Groups`): by the sets the requirements count the discard and
    /// the hand kept against, and by `class`, where every requirement reads them only so; else one
    /// group for each card.
    fn groups(&self, p: u8, allowed: CardSet, class: CardSet) -> Groups {
        let env = self.env(Some(p));
        let fixed = |e: &crate::expr::Expr| eval(e, &env).ok();
        let mut sets = vec![class];
        let requires = self.rules().discard.as_ref().map_or(&[][..], |d| &d.requires[..]);
        let together = requires.iter().all(|(_, cond, _)| cond.reads_as_sets(&[Fact::Discarded, Fact::Hand], &fixed, &mut sets));
        let mut groups = Groups { cards: vec![], restricted: vec![] };
        let mut keys: Vec<Vec<bool>> = vec![];
        for c in allowed.iter() {
            let key: Vec<bool> = sets.iter().map(|s| s.contains(c)).collect();
            match keys.iter().position(|k| *k == key).filter(|_| together) {
                Some(g) => groups.cards[g].push(c),
                None => {
                    groups.cards.push(vec![c]);
                    groups.restricted.push(class.contains(c));
                    keys.push(key);
                }
            }
        }
        groups
    }
}

impl Groups {
    /// The first discard of `r` cards of `unless-unavoidable` and `f` others (taking from each group
    /// its first cards), holding a card of group `with` when given, for which `meets` stops; `None`
    /// when none does. Of two choices, the one that takes more of an earlier group comes first.
    fn search(&self, r: usize, f: usize, with: Option<usize>, meets: &dyn Fn(CardSet) -> Option<Stopped>) -> Option<Stopped> {
        // How many cards of each kind the groups from the i-th on hold.
        let mut after = vec![(0, 0); self.cards.len() + 1];
        for g in (0..self.cards.len()).rev() {
            let (a, b) = after[g + 1];
            after[g] = if self.restricted[g] { (a + self.cards[g].len(), b) } else { (a, b + self.cards[g].len()) };
        }
        let wanted = |g: usize| if self.restricted[g] { r } else { f };
        if after[0].0 < r || after[0].1 < f || with.is_some_and(|g| wanted(g) == 0) {
            return None;
        }
        self.choose(0, (r, f), with, CardSet::EMPTY, &after, meets)
    }

    fn choose(&self, g: usize, left: (usize, usize), with: Option<usize>, set: CardSet, after: &[(usize, usize)], meets: &dyn Fn(CardSet) -> Option<Stopped>) -> Option<Stopped> {
        if g == self.cards.len() {
            return meets(set);
        }
        let (mine, rest) = if self.restricted[g] { (left.0, after[g + 1].0) } else { (left.1, after[g + 1].1) };
        let least = mine.saturating_sub(rest).max(usize::from(with == Some(g)));
        // A card of the same kind kept for group `with`, when it comes later.
        let kept = usize::from(with.is_some_and(|w| w > g && self.restricted[w] == self.restricted[g]));
        let most = mine.saturating_sub(kept).min(self.cards[g].len());
        (least..=most).rev().find_map(|k| {
            let left = if self.restricted[g] { (left.0 - k, left.1) } else { (left.0, left.1 - k) };
            self.choose(g + 1, left, with, set.or(self.cards[g][..k].iter().copied().collect()), after, meets)
        })
    }
}

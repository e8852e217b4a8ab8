//! The reads waiting on one HTTP worker thread to be taken together
//! ([`super::OwnConnections::read_by_key`]; docs/storage.md, "Reads taken
//! together"): per database and statement, a queue of keys, each with the
//! way back to the read that asked for it.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;

use tokio::sync::oneshot;

use super::ReadFuture;

/// The most keys one statement reads.
pub const MAX_TAKEN: usize = 64;

/// The future of a read of rows by key: each row with its key.
pub type KeyedFuture<'c, T> = ReadFuture<'c, Vec<(String, T)>>;

/// How the statement that read a key failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Failed {
    /// Within a tenth of the bound of being sent (a connection the
    /// database ended).
    AtOnce,
    Late,
}

/// A read's answer: its row (or none), or how the statement that read it
/// failed. Dropped unsent: the statement was never answered (the read
/// that sent it stopped).
pub(super) type Answer<T> = Result<Option<T>, Failed>;

/// A read waiting for its row.
pub(super) struct Waiting<T> {
    ticket: u64,
    pub(super) key: String,
    pub(super) answer: oneshot::Sender<Answer<T>>,
}

/// The reads of one kind waiting on one thread, oldest first.
pub(super) struct Queue<T> {
    waiting: Vec<Waiting<T>>,
    next_ticket: u64,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue {
            waiting: Vec::new(),
            next_ticket: 0,
        }
    }
}

impl<T> Queue<T> {
    /// Adds a read of `key`; its ticket.
    pub(super) fn join(&mut self, key: String, answer: oneshot::Sender<Answer<T>>) -> u64 {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.waiting.push(Waiting {
            ticket,
            key,
            answer,
        });
        ticket
    }

    /// Takes read `ticket` out; whether it was still waiting.
    pub(super) fn leave(&mut self, ticket: u64) -> bool {
        let before = self.waiting.len();
        self.waiting.retain(|w| w.ticket != ticket);
        self.waiting.len() < before
    }

    /// Read `own` and the oldest other reads still waiting, at most
    /// [`MAX_TAKEN`] in all (reads that gave up are dropped).
    pub(super) fn take(&mut self, own: u64) -> Vec<Waiting<T>> {
        self.waiting.retain(|w| !w.answer.is_closed());
        let mut taken = Vec::new();
        if let Some(at) = self.waiting.iter().position(|w| w.ticket == own) {
            if at >= MAX_TAKEN {
                taken.push(self.waiting.remove(at));
            }
        }
        let n = self.waiting.len().min(MAX_TAKEN - taken.len());
        taken.extend(self.waiting.drain(..n));
        taken
    }
}

thread_local! {
    static QUEUES: RefCell<HashMap<(u64, TypeId), Box<dyn Any>>> = RefCell::new(HashMap::new());
}

/// `f` on this thread's queue of the reads by statement `kind` of database
/// `id` (each answered with a `T`); `None` once the thread is ending.
pub(super) fn with_queue<T: 'static, R>(
    id: u64,
    kind: TypeId,
    f: impl FnOnce(&mut Queue<T>) -> R,
) -> Option<R> {
    QUEUES
        .try_with(|queues| {
            let mut queues = queues.borrow_mut();
            let queue = queues
                .entry((id, kind))
                .or_insert_with(|| Box::new(Queue::<T>::default()));
            queue.downcast_mut::<Queue<T>>().map(f)
        })
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn a_queue_gives_its_own_read_and_the_oldest_live_ones_at_most_so_many_at_once() {
        let mut queue = Queue::<u8>::default();
        let mut answers = Vec::new();
        let mut tickets = Vec::new();
        for i in 0..MAX_TAKEN + 4 {
            let (answer, answered) = oneshot::channel();
            tickets.push(queue.join(format!("k{i}"), answer));
            answers.push(answered);
        }
        // One read left, one gave up (its receiver dropped).
        assert!(queue.leave(tickets[1]));
        assert!(!queue.leave(tickets[1]));
        drop(answers.remove(2));
        // The oldest: k0, k3, k4, ...
        let taken: Vec<String> = queue.take(tickets[0]).into_iter().map(|w| w.key).collect();
        assert_eq!(taken.len(), MAX_TAKEN);
        assert_eq!(taken[..3], ["k0", "k3", "k4"].map(str::to_owned));
        // Two left; a read past the oldest MAX_TAKEN always takes its own.
        for i in 0..MAX_TAKEN {
            let (answer, answered) = oneshot::channel();
            queue.join(format!("n{i}"), answer);
            answers.push(answered);
        }
        let (answer, answered) = oneshot::channel();
        let own = queue.join("own".to_owned(), answer);
        answers.push(answered);
        let taken: Vec<String> = queue.take(own).into_iter().map(|w| w.key).collect();
        assert_eq!(taken.len(), MAX_TAKEN);
        assert_eq!(taken[0], "own");
        assert_eq!(taken[1], format!("k{}", MAX_TAKEN + 2));
        // The one taken with its statement is no longer waiting.
        assert!(!queue.leave(tickets[MAX_TAKEN + 3]));
        let left: Vec<&str> = queue.waiting.iter().map(|w| w.key.as_str()).collect();
        let newest: Vec<String> = (MAX_TAKEN - 3..MAX_TAKEN)
            .map(|i| format!("n{i}"))
            .collect();
        assert_eq!(left, newest);
    }
}

//! Work spread over scoped threads, with results in a fixed order whatever the thread count.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `f` applied to every item on up to `threads` scoped threads; the results in the items' order.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread panicked"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// `f` applied to every item on up to `threads` scoped threads, each result handed to `sink` on
/// the calling thread in the items' order as soon as it and every earlier one are ready, so the
/// sink's work overlaps the workers'. A worker starts an item only when fewer than `2 * threads`
/// results wait for the sink: however slow the sink, few results are held in memory at once.
/// Stops at the sink's first error (the workers start no more items) and returns it.
pub(crate) fn for_each_in_order<T: Sync, R: Send, E>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().try_for_each(|item| sink(f(item)));
    }
    let window = 2 * threads;
    let next = AtomicUsize::new(0);
    // How many results the sink has taken, and whether to stop; workers wait on it.
    let handed = std::sync::Mutex::new((0usize, false));
    let moved = std::sync::Condvar::new();
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel::<(usize, R)>();
        for _ in 0..threads {
            let send = send.clone();
            let (next, handed, moved, f) = (&next, &handed, &moved, &f);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                // Item `handed` itself never waits: no worker waits for a result it holds.
                let state = moved
                    .wait_while(handed.lock().unwrap(), |(taken, stop)| {
                        !*stop && i >= *taken + window
                    })
                    .unwrap();
                if state.1 {
                    break;
                }
                drop(state);
                if send.send((i, f(item))).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // Results that came before an earlier one, by index.
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0;
        let mut outcome = Ok(());
        for (i, r) in receive {
            if outcome.is_err() {
                continue;
            }
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&due) {
                due += 1;
                let result = sink(r);
                let mut state = handed.lock().unwrap();
                state.0 = due;
                if let Err(e) = result {
                    state.1 = true;
                    outcome = Err(e);
                }
                drop(state);
                moved.notify_all();
                if outcome.is_err() {
                    break;
                }
            }
        }
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_reach_the_sink_in_order_for_any_thread_count() {
        let items: Vec<u64> = (0..200).collect();
        // Uneven work, so that later items often finish first.
        let work = |&i: &u64| {
            let mut x = i;
            for _ in 0..(200 - i) * 500 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            (i, x)
        };
        let expected: Vec<(u64, u64)> = items.iter().map(work).collect();
        for threads in [1, 2, 3, 8] {
            let mut got = Vec::new();
            for_each_in_order(&items, threads, work, |r| {
                got.push(r);
                Ok::<(), ()>(())
            })
            .unwrap();
            assert_eq!(got, expected, "{threads} threads");
            assert_eq!(map(&items, threads, work), expected, "{threads} threads");
        }
    }

    #[test]
    fn a_slow_sink_holds_back_the_workers() {
        let items: Vec<usize> = (0..64).collect();
        let started = AtomicUsize::new(0);
        let threads = 3;
        for_each_in_order(
            &items,
            threads,
            |&i| {
                started.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i| {
                std::thread::sleep(std::time::Duration::from_millis(2));
                // Started so far: at most the results taken, the window, and one item that
                // each worker claimed but has not started.
                let ahead = started.load(Ordering::SeqCst) - i;
                assert!(ahead <= 2 * threads + 1, "{ahead} ahead of the sink at {i}");
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(started.load(Ordering::SeqCst), items.len());
    }

    #[test]
    fn the_sinks_first_error_stops_the_work_and_is_returned() {
        let items: Vec<usize> = (0..10_000).collect();
        let done = AtomicUsize::new(0);
        let mut seen = Vec::new();
        let r = for_each_in_order(
            &items,
            2,
            |&i| {
                done.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_micros(50));
                i
            },
            |i| {
                seen.push(i);
                if i == 5 {
                    Err("disk full")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(r, Err("disk full"));
        assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
        assert!(done.load(Ordering::Relaxed) < items.len());
    }
}

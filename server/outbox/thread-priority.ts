/**
 * A thread's CPU priority (decision 056). Linux keeps a nice value per thread, and `setpriority`
 * given a thread's id changes that thread alone; the id is the last part of /proc/thread-self.
 * Where there is no /proc (macOS, Windows), nothing changes and the answer says why.
 */
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

export type PriorityOutcome = { lowered: true; threadId: number } | { lowered: false; why: string };

/**
 * Gives the calling thread `nice` (1 to 19: the higher, the more it yields to the process's other
 * threads). Never raises a priority, and never touches the process's first thread.
 */
export function lowerThisThreadPriority(nice: number): PriorityOutcome {
  if (!Number.isInteger(nice) || nice < 1 || nice > 19) {
    throw new RangeError(`a thread's nice value is a whole number from 1 to 19, not ${nice}`);
  }
  let threadId: number;
  try {
    // "<pid>/task/<tid>"
    threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
  } catch {
    return { lowered: false, why: "this system has no /proc/thread-self" };
  }
  if (!Number.isInteger(threadId) || threadId <= 0) {
    return { lowered: false, why: "/proc/thread-self named no thread" };
  }
  if (threadId === process.pid) {
    return { lowered: false, why: "this is the process's first thread" };
  }
  try {
    if (getPriority(threadId) < nice) setPriority(threadId, nice);
  } catch (error) {
    return { lowered: false, why: (error as Error).message };
  }
  return { lowered: true, threadId };
}

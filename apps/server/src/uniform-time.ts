import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` and answers (its result or its error) no sooner than `floorMs` after the start, so that
 * the answer time does not tell which path ran: "mail a code to this account" and "there is no such
 * account" take the same time from outside (ASVS 5.0 V6.3.x: no user enumeration through timing).
 * The floor must exceed the slower path's usual time; beyond it the answer leaves at once.
 */
export async function answerNoSoonerThan<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const settle = async () => {
    const left = floorMs - (performance.now() - start);
    if (left > 0) await sleep(left);
  };
  try {
    const result = await work();
    await settle();
    return result;
  } catch (error) {
    await settle();
    throw error;
  }
}

/** Recovery requests answer after this at the earliest (the mail-queuing path takes a few ms). */
export const RECOVERY_ANSWER_FLOOR_MS = 200;

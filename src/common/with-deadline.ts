/** Waits for `work`, but no longer than `ms`: then calls `onLate` and resolves (the work goes on unawaited). For shutdown steps that must not hang it. */
export async function withDeadline(work: Promise<unknown>, ms: number, onLate: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    if ((await Promise.race([work.then(() => 'done' as const), late])) === 'late') onLate();
  } finally {
    clearTimeout(timer);
  }
}

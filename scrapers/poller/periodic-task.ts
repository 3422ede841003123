export const DAY_MS = 86_400_000;

/** Runs `task` at once and every `intervalMs`, one run at a time, logging what it says or how it failed; stop() waits for a run in progress. */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly task: () => Promise<string>,
    private readonly log: (line: string) => void,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.run();
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  private run(): void {
    this.running = this.running.then(async () => {
      try {
        this.log(await this.task());
      } catch (error) {
        this.log(`${this.name}: failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * What each command that opens the archive does where none is: "start" one (it puts the first
 * vendors or captures in, or is how an archive is made), or "refuse" and create nothing. A command
 * that reads or changes an archive refuses: pointed at the wrong place (beside the demo, whose
 * archive is data/demo.db) it would otherwise leave an empty archive behind and answer as if the
 * archive had nothing in it.
 *
 * The commands that open it otherwise decide as well: `backup` refuses a file that is not there,
 * `restore` makes one from the backup, `copy` refuses a missing --from and starts its --to.
 */
export const ARCHIVE_ACCESS = {
  migrate: "start",
  import: "start",
  "import --add-source": "refuse",
  "import-git": "start",
  "import-git --add-source": "refuse",
  "vendors add": "start",
  "vendors add --add-source": "refuse",
  "vendors sync-catalog": "start",
  "vendors list": "refuse",
  "vendors remove": "refuse",
  "vendors hook-secret": "refuse",
  export: "refuse",
  status: "refuse",
  stats: "refuse",
  rederive: "refuse",
  "prune-raw": "refuse",
  // `npm start` makes the archive before it starts the poller and the notifier.
  poll: "refuse",
  notify: "refuse",
  "watchlists add": "refuse",
  "watchlists list": "refuse",
  "watchlists remove": "refuse",
  "subscriptions add": "refuse",
  "subscriptions list": "refuse",
  "subscriptions remove": "refuse",
  "subscriptions test": "refuse",
  "subscriptions deliveries": "refuse",
} as const satisfies Record<string, "start" | "refuse">;

export type ArchiveCommand = keyof typeof ARCHIVE_ACCESS;

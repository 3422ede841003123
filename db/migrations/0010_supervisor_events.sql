CREATE TABLE `supervisor_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`process` text NOT NULL,
	`event` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `supervisor_events_at` ON `supervisor_events` (`at`);
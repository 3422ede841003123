CREATE TABLE "host_slots" (
	"origin" text COLLATE "C" PRIMARY KEY NOT NULL,
	"next_start_ms" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "poll_state" ADD COLUMN "lease_owner" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "poll_state" ADD COLUMN "lease_expires_at" text COLLATE "C";
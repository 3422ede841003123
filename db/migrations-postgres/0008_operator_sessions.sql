-- The operator's signed-in browsers, shared by every web server: a hash of each session's random id, the token it was made with, and when it ends.
CREATE TABLE "operator_sessions" (
	"id_hash" text COLLATE "C" PRIMARY KEY NOT NULL,
	"token_fingerprint" text COLLATE "C" NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"expires_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "operator_sessions_expires_at" ON "operator_sessions" USING btree ("expires_at");
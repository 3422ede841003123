CREATE TABLE `delivery_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`subscription_id` text NOT NULL,
	`attempted_at` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	FOREIGN KEY (`message_id`) REFERENCES `notification_messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_subscription` ON `delivery_attempts` (`subscription_id`,`id`);--> statement-breakpoint
CREATE TABLE `notification_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`created_at` text NOT NULL,
	`sent_at` text,
	`last_error` text,
	`period` text,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_messages_webhook_id_unique` ON `notification_messages` (`webhook_id`);--> statement-breakpoint
CREATE INDEX `notification_messages_due` ON `notification_messages` (`next_attempt_at`) WHERE "notification_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `notification_messages_subscription` ON `notification_messages` (`subscription_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` text NOT NULL,
	`vendor_id` integer NOT NULL,
	`provider_id` text NOT NULL,
	`seq` integer NOT NULL,
	`created_at` text NOT NULL,
	`message_id` integer,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `notification_messages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_identity` ON `notifications` (`subscription_id`,`vendor_id`,`provider_id`,`seq`);--> statement-breakpoint
CREATE INDEX `notifications_unplanned` ON `notifications` (`subscription_id`,`id`) WHERE "notifications"."message_id" IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_message` ON `notifications` (`message_id`);--> statement-breakpoint
CREATE TABLE `outbox_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`provider_id` text NOT NULL,
	`seq` integer NOT NULL,
	`facts` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`target` text NOT NULL,
	`format` text NOT NULL,
	`filter` text NOT NULL,
	`watchlist_id` integer,
	`digest` text,
	`secret` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`disabled_at` text,
	`disabled_reason` text,
	`failing_since` text,
	`last_delivered_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`watchlist_id`) REFERENCES `watchlists`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `watchlist_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`watchlist_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`component` text,
	FOREIGN KEY (`watchlist_id`) REFERENCES `watchlists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `watchlist_members_identity` ON `watchlist_members` (`watchlist_id`,`vendor_id`,coalesce(`component`, ''));--> statement-breakpoint
CREATE TABLE `watchlists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `watchlists_name_unique` ON `watchlists` (`name`);
ALTER TABLE `vendors` ADD `applied_observed_at` text;--> statement-breakpoint
ALTER TABLE `vendors` ADD `applied_source` text;--> statement-breakpoint
ALTER TABLE `vendors` ADD `applied_hash` text;--> statement-breakpoint
-- What was applied so far: every good capture, in capture order.
UPDATE `vendors` SET (`applied_observed_at`, `applied_source`, `applied_hash`) = (
  SELECT `observed_at`, `source`, `hash` FROM `captures` c WHERE c.`vendor_id` = `vendors`.`id` AND c.`outcome` = 'ok'
  ORDER BY `observed_at` DESC, `source` DESC, `hash` DESC LIMIT 1
);

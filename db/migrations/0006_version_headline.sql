ALTER TABLE `incident_versions` ADD `headline` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `incident_versions` SET `headline` = `summary` WHERE `headline` = '';

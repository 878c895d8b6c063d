CREATE TABLE `known_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `known_devices_user_idx` ON `known_devices` (`user_id`);--> statement-breakpoint
CREATE TABLE `one_time_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `one_time_tokens_user_idx` ON `one_time_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`from_address` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_message_id_unique` ON `outbox` (`message_id`);--> statement-breakpoint
ALTER TABLE `hub_installations` ADD `admin_token` text;--> statement-breakpoint
ALTER TABLE `licenses` ADD `hub_job_id` text;--> statement-breakpoint
-- The Hub administrator's token leaves the jobs: onto the Hub installation a finished provisioning recorded,
UPDATE `hub_installations` SET `admin_token` = (
	SELECT json_extract(`jobs`.`steps`, '$."set-up-admin".result.jwt') FROM `jobs`
	WHERE json_extract(`jobs`.`steps`, '$."record-hub".result.hubId') = `hub_installations`.`id`
		AND json_extract(`jobs`.`steps`, '$."set-up-admin".result.jwt') IS NOT NULL
	LIMIT 1
) WHERE `admin_token` IS NULL;--> statement-breakpoint
-- into the input of a job that has not recorded its Hub yet (its upload and record steps read it there),
UPDATE `jobs` SET `input` = json_set(`input`, '$.adminToken', json_extract(`steps`, '$."set-up-admin".result.jwt'))
WHERE json_extract(`steps`, '$."set-up-admin".result.jwt') IS NOT NULL
	AND json_extract(`steps`, '$."record-hub".status') IS NOT 'done';--> statement-breakpoint
-- and out of every job's saved steps and result.
UPDATE `jobs` SET
	`steps` = json_remove(`steps`, '$."set-up-admin".result.jwt'),
	`result` = CASE WHEN `result` IS NULL THEN NULL ELSE json_remove(`result`, '$."set-up-admin".jwt') END
WHERE json_extract(`steps`, '$."set-up-admin".result.jwt') IS NOT NULL;--> statement-breakpoint
-- A cloud Hub deployment still under way holds its license from now on, as one queued after this change would.
UPDATE `licenses` SET `hub_job_id` = (
	SELECT `jobs`.`id` FROM `jobs`
	WHERE `jobs`.`kind` = 'cloud-hub' AND `jobs`.`status` IN ('queued', 'running', 'needs_attention')
		AND json_extract(`jobs`.`input`, '$.licenseId') = `licenses`.`id`
	ORDER BY `jobs`.`created_at` LIMIT 1
) WHERE `is_used` = 0;

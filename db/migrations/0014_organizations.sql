CREATE TABLE `activity` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`actor_user_id` text,
	`actor_name` text NOT NULL,
	`action` text NOT NULL,
	`summary` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `activity_organization_idx` ON `activity` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`invited_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_organization_email_idx` ON `invitations` (`organization_id`,`email`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`organization_id`, `user_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memberships_user_idx` ON `memberships` (`user_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`customer_type` text DEFAULT 'customer' NOT NULL,
	`billing_customer_id` text,
	`shipping_address` text,
	`country` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_billing_customer_id_unique` ON `organizations` (`billing_customer_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`user_id` text NOT NULL,
	`wizard` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- A draft was its user's: it stays that person's, in the organization their account becomes (which takes the
-- user's id, so every owner_id keeps naming the same data).
INSERT INTO `__new_drafts`("id", "owner_id", "user_id", "wizard", "data", "created_at", "updated_at") SELECT "id", "owner_id", "owner_id", "wizard", "data", "created_at", "updated_at" FROM `drafts`;--> statement-breakpoint
DROP TABLE `drafts`;--> statement-breakpoint
ALTER TABLE `__new_drafts` RENAME TO `drafts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `drafts_owner_user_wizard_idx` ON `drafts` (`owner_id`,`user_id`,`wizard`);--> statement-breakpoint
CREATE TABLE `__new_hub_installations` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`type` text NOT NULL,
	`url` text,
	`ip` text,
	`last_seen` integer,
	`version` text,
	`computers` integer DEFAULT 0 NOT NULL,
	`users` integer DEFAULT 0 NOT NULL,
	`max_users` integer DEFAULT 0 NOT NULL,
	`devices` integer DEFAULT 0 NOT NULL,
	`credentials` integer DEFAULT 0 NOT NULL,
	`locks_this_month` integer DEFAULT 0 NOT NULL,
	`locks_this_year` integer DEFAULT 0 NOT NULL,
	`unlocks_this_month` integer DEFAULT 0 NOT NULL,
	`unlocks_this_year` integer DEFAULT 0 NOT NULL,
	`web_credentials_used_this_month` integer DEFAULT 0 NOT NULL,
	`web_credentials_used_this_year` integer DEFAULT 0 NOT NULL,
	`admin_token` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_hub_installations`("id", "owner_id", "type", "url", "ip", "last_seen", "version", "computers", "users", "max_users", "devices", "credentials", "locks_this_month", "locks_this_year", "unlocks_this_month", "unlocks_this_year", "web_credentials_used_this_month", "web_credentials_used_this_year", "admin_token", "created_at") SELECT "id", "owner_id", "type", "url", "ip", "last_seen", "version", "computers", "users", "max_users", "devices", "credentials", "locks_this_month", "locks_this_year", "unlocks_this_month", "unlocks_this_year", "web_credentials_used_this_month", "web_credentials_used_this_year", "admin_token", "created_at" FROM `hub_installations`;--> statement-breakpoint
DROP TABLE `hub_installations`;--> statement-breakpoint
ALTER TABLE `__new_hub_installations` RENAME TO `hub_installations`;--> statement-breakpoint
CREATE INDEX `hub_installations_owner_last_seen_idx` ON `hub_installations` (`owner_id`,`last_seen`,`id`);--> statement-breakpoint
CREATE INDEX `hub_installations_owner_type_last_seen_idx` ON `hub_installations` (`owner_id`,`type`,`last_seen`,`id`);--> statement-breakpoint
CREATE TABLE `__new_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`number` text NOT NULL,
	`date` integer NOT NULL,
	`purpose` text NOT NULL,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`amount_paid` integer NOT NULL,
	`amount_due` integer NOT NULL,
	`paid_at` integer,
	`next_retry_at` integer,
	`resource_version` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_invoices`("id", "owner_id", "customer_id", "subscription_id", "number", "date", "purpose", "status", "total", "amount_paid", "amount_due", "paid_at", "next_retry_at", "resource_version", "updated_at") SELECT "id", "owner_id", "customer_id", "subscription_id", "number", "date", "purpose", "status", "total", "amount_paid", "amount_due", "paid_at", "next_retry_at", "resource_version", "updated_at" FROM `invoices`;--> statement-breakpoint
DROP TABLE `invoices`;--> statement-breakpoint
ALTER TABLE `__new_invoices` RENAME TO `invoices`;--> statement-breakpoint
CREATE INDEX `invoices_owner_date_idx` ON `invoices` (`owner_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_subscription_status_idx` ON `invoices` (`subscription_id`,`status`);--> statement-breakpoint
CREATE TABLE `__new_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`input` text NOT NULL,
	`steps` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`result` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_run_at` integer,
	`lease_holder` text,
	`lease_until` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("id", "kind", "owner_id", "idempotency_key", "input", "steps", "status", "error", "result", "attempts", "next_run_at", "lease_holder", "lease_until", "created_at", "updated_at", "finished_at") SELECT "id", "kind", "owner_id", "idempotency_key", "input", "steps", "status", "error", "result", "attempts", "next_run_at", "lease_holder", "lease_until", "created_at", "updated_at", "finished_at" FROM `jobs`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_idempotency_key_unique` ON `jobs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `jobs_owner_idx` ON `jobs` (`owner_id`);--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`status`,`next_run_at`);--> statement-breakpoint
-- Hand-written: the license_counts triggers go while both tables are rebuilt (a rename checks every trigger's
-- tables), and are made again below.
DROP TRIGGER `license_counts_after_insert`;--> statement-breakpoint
DROP TRIGGER `license_counts_after_delete`;--> statement-breakpoint
DROP TRIGGER `license_counts_after_owner_change`;--> statement-breakpoint
CREATE TABLE `__new_license_counts` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_license_counts`("owner_id", "total") SELECT "owner_id", "total" FROM `license_counts`;--> statement-breakpoint
DROP TABLE `license_counts`;--> statement-breakpoint
ALTER TABLE `__new_license_counts` RENAME TO `license_counts`;--> statement-breakpoint
CREATE TABLE `__new_licenses` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`external_license_id` text NOT NULL,
	`name` text NOT NULL,
	`nodes` integer NOT NULL,
	`plan_type` text NOT NULL,
	`type` text NOT NULL,
	`has_cloud_support` integer DEFAULT false NOT NULL,
	`valid_from` integer NOT NULL,
	`valid_to` integer NOT NULL,
	`license_code` text NOT NULL,
	`is_used` integer DEFAULT false NOT NULL,
	`hub_job_id` text,
	`subscription_id` text,
	`terms_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_licenses`("id", "owner_id", "external_license_id", "name", "nodes", "plan_type", "type", "has_cloud_support", "valid_from", "valid_to", "license_code", "is_used", "hub_job_id", "subscription_id", "terms_version", "created_at") SELECT "id", "owner_id", "external_license_id", "name", "nodes", "plan_type", "type", "has_cloud_support", "valid_from", "valid_to", "license_code", "is_used", "hub_job_id", "subscription_id", "terms_version", "created_at" FROM `licenses`;--> statement-breakpoint
DROP TABLE `licenses`;--> statement-breakpoint
ALTER TABLE `__new_licenses` RENAME TO `licenses`;--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_external_license_id_unique` ON `licenses` (`external_license_id`);--> statement-breakpoint
CREATE INDEX `licenses_owner_valid_from_idx` ON `licenses` (`owner_id`,`valid_from`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_subscription_idx` ON `licenses` (`subscription_id`);--> statement-breakpoint
CREATE INDEX `licenses_owner_valid_to_idx` ON `licenses` (`owner_id`,`valid_to`);--> statement-breakpoint
CREATE INDEX `licenses_owner_type_idx` ON `licenses` (`owner_id`,`type`);--> statement-breakpoint
-- Hand-written: license_counts is kept by the same triggers as before (migration 0010, decision 120); its rows
-- came across with the rebuilt table.
CREATE TRIGGER `license_counts_after_insert` AFTER INSERT ON `licenses` BEGIN
	INSERT INTO `license_counts` (`owner_id`, `total`) VALUES (NEW.`owner_id`, 1)
		ON CONFLICT (`owner_id`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `license_counts_after_delete` AFTER DELETE ON `licenses` BEGIN
	UPDATE `license_counts` SET `total` = `total` - 1 WHERE `owner_id` = OLD.`owner_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `license_counts_after_owner_change` AFTER UPDATE OF `owner_id` ON `licenses`
	WHEN NEW.`owner_id` IS NOT OLD.`owner_id` BEGIN
	UPDATE `license_counts` SET `total` = `total` - 1 WHERE `owner_id` = OLD.`owner_id`;
	INSERT INTO `license_counts` (`owner_id`, `total`) VALUES (NEW.`owner_id`, 1)
		ON CONFLICT (`owner_id`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TABLE `__new_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`plan_quantity` integer NOT NULL,
	`status` text NOT NULL,
	`addons` text NOT NULL,
	`current_term_start` integer,
	`current_term_end` integer,
	`next_billing_at` integer,
	`cancelled_at` integer,
	`total_dues` integer DEFAULT 0 NOT NULL,
	`due_since` integer,
	`resource_version` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_subscriptions`("id", "owner_id", "customer_id", "plan_id", "plan_quantity", "status", "addons", "current_term_start", "current_term_end", "next_billing_at", "cancelled_at", "total_dues", "due_since", "resource_version", "updated_at") SELECT "id", "owner_id", "customer_id", "plan_id", "plan_quantity", "status", "addons", "current_term_start", "current_term_end", "next_billing_at", "cancelled_at", "total_dues", "due_since", "resource_version", "updated_at" FROM `subscriptions`;--> statement-breakpoint
DROP TABLE `subscriptions`;--> statement-breakpoint
ALTER TABLE `__new_subscriptions` RENAME TO `subscriptions`;--> statement-breakpoint
CREATE INDEX `subscriptions_owner_status_idx` ON `subscriptions` (`owner_id`,`status`);--> statement-breakpoint
CREATE TABLE `__new_trials` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`user_id` text,
	`hub_type` text NOT NULL,
	`hub_id` text,
	`hub_url` text,
	`license_id` text,
	`nodes` integer NOT NULL,
	`employees` integer NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`sensors` integer DEFAULT 0 NOT NULL,
	`duration` integer NOT NULL,
	`user_name` text,
	`address` text,
	`hardware_invoice_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- A trial was its user's: it becomes their organization's, started by them.
INSERT INTO `__new_trials`("id", "owner_id", "user_id", "hub_type", "hub_id", "hub_url", "license_id", "nodes", "employees", "tokens", "sensors", "duration", "user_name", "address", "hardware_invoice_id", "created_at") SELECT "id", "user_id", "user_id", "hub_type", "hub_id", "hub_url", "license_id", "nodes", "employees", "tokens", "sensors", "duration", "user_name", "address", "hardware_invoice_id", "created_at" FROM `trials`;--> statement-breakpoint
DROP TABLE `trials`;--> statement-breakpoint
ALTER TABLE `__new_trials` RENAME TO `trials`;--> statement-breakpoint
CREATE INDEX `trials_owner_idx` ON `trials` (`owner_id`);--> statement-breakpoint
CREATE INDEX `trials_hardware_invoice_idx` ON `trials` (`hardware_invoice_id`);--> statement-breakpoint
CREATE TABLE `__new_one_time_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text,
	`invitation_id` text,
	`data` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invitation_id`) REFERENCES `invitations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_one_time_tokens`("id", "purpose", "user_id", "invitation_id", "data", "created_at", "expires_at") SELECT "id", "purpose", "user_id", NULL, "data", "created_at", "expires_at" FROM `one_time_tokens`;--> statement-breakpoint
DROP TABLE `one_time_tokens`;--> statement-breakpoint
ALTER TABLE `__new_one_time_tokens` RENAME TO `one_time_tokens`;--> statement-breakpoint
CREATE INDEX `one_time_tokens_user_idx` ON `one_time_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE INDEX `one_time_tokens_invitation_idx` ON `one_time_tokens` (`invitation_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `organization_id` text REFERENCES organizations(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `last_signed_in_at` integer;--> statement-breakpoint
-- Hand-written data steps. Every account becomes an organization of one member, its owner, with nothing lost:
-- the organization takes the user's id (so the owner_id of every license, Hub, trial, draft and job, and every
-- key derived from it, keeps naming the same data), its company as the name (else the person's), and the
-- customer type, billing customer and shipping address that were the user's. The migration runs with foreign
-- keys off (app/server/sqlite.server.ts) and is checked with foreign_key_check afterwards.
INSERT INTO `organizations` (`id`, `name`, `customer_type`, `billing_customer_id`, `shipping_address`, `created_at`)
	SELECT `id`, CASE WHEN trim(`company`) <> '' THEN trim(`company`) ELSE trim(`first_name` || ' ' || `last_name`) END,
		`customer_type`, `billing_customer_id`, `shipping_address`, `created_at`
	FROM `users`;--> statement-breakpoint
INSERT INTO `memberships` (`organization_id`, `user_id`, `role`, `created_at`)
	SELECT `id`, `id`, 'owner', `created_at` FROM `users`;--> statement-breakpoint
-- The accounts there are were made by GateKeeper (the demo seed, sales): their addresses count as verified.
UPDATE `users` SET `email_verified_at` = `created_at`;--> statement-breakpoint
INSERT INTO `activity` (`organization_id`, `actor_user_id`, `actor_name`, `action`, `summary`, `created_at`)
	SELECT `id`, NULL, 'GateKeeper', 'organization.created',
		'The account of ' || trim(`first_name` || ' ' || `last_name`) || ' became this organization, with them as its Owner.',
		CAST(unixepoch('subsec') * 1000 AS integer)
	FROM `users`;--> statement-breakpoint
-- The activity log is never changed once written; only the link to a member whose account was deleted goes
-- (ON DELETE SET NULL: the entry keeps their name).
CREATE TRIGGER `activity_never_changes` BEFORE UPDATE OF `id`, `organization_id`, `actor_name`, `action`, `summary`, `created_at` ON `activity` BEGIN
	SELECT RAISE(ABORT, 'The activity log is never changed.');
END;
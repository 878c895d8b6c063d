DROP INDEX `subscriptions_owner_term_end_idx`;--> statement-breakpoint
CREATE INDEX `subscriptions_owner_term_end_idx` ON `subscriptions` (`owner_id`,`current_term_end`,`status`,`id`,`plan_id`,`plan_quantity`,`addons`);--> statement-breakpoint
CREATE INDEX `licenses_subscription_renewal_idx` ON `licenses` (`subscription_id`,`owner_id`,`licensee_id`,`external_license_id`,`nodes`);
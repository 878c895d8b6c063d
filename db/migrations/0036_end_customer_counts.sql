ALTER TABLE `organization_counts` ADD `end_customers` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written below: drizzle's schema cannot declare triggers. end_customers is a distributor's number of end
-- customers (organizations whose managed_by names it); these triggers keep it in the same transaction as the
-- organization's insert, delete or move to another distributor, as 0016's keep members and invoices (decision 237).
-- An organization of no distributor (managed_by null) counts nowhere.
CREATE TRIGGER `organization_counts_after_end_customer_insert` AFTER INSERT ON `organizations`
	WHEN NEW.`managed_by` IS NOT NULL BEGIN
	INSERT INTO `organization_counts` (`organization_id`, `end_customers`) VALUES (NEW.`managed_by`, 1)
		ON CONFLICT (`organization_id`) DO UPDATE SET `end_customers` = `end_customers` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_end_customer_delete` AFTER DELETE ON `organizations`
	WHEN OLD.`managed_by` IS NOT NULL BEGIN
	UPDATE `organization_counts` SET `end_customers` = `end_customers` - 1 WHERE `organization_id` = OLD.`managed_by`;
END;
--> statement-breakpoint
CREATE TRIGGER `organization_counts_after_end_customer_move` AFTER UPDATE OF `managed_by` ON `organizations`
	WHEN NEW.`managed_by` IS NOT OLD.`managed_by` BEGIN
	UPDATE `organization_counts` SET `end_customers` = `end_customers` - 1 WHERE `organization_id` = OLD.`managed_by`;
	INSERT INTO `organization_counts` (`organization_id`, `end_customers`)
		SELECT NEW.`managed_by`, 1 WHERE NEW.`managed_by` IS NOT NULL
		ON CONFLICT (`organization_id`) DO UPDATE SET `end_customers` = `end_customers` + 1;
END;
--> statement-breakpoint
-- The end customers already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO `organization_counts` (`organization_id`, `end_customers`)
	SELECT `managed_by`, count(*) FROM `organizations` WHERE `managed_by` IS NOT NULL GROUP BY `managed_by`
	ON CONFLICT (`organization_id`) DO UPDATE SET `end_customers` = excluded.`end_customers`;

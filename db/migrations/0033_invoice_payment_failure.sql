ALTER TABLE `invoices` ADD `payment_failure` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `payment_failure` text;
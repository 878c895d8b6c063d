-- Invoices issued before the engine kept the parties of each document: each takes its buyer from today's data, the
-- customer's company, name and email as they are now and the billing address the invoice was made with (or the
-- customer's current one). No VAT number existed then. The seller is recorded at start-up, from the configuration.
UPDATE `billing_invoices`
SET `billed_to` = (
  SELECT json_object(
    'name', CASE WHEN `c`.`company` <> '' THEN `c`.`company` ELSE trim(`c`.`first_name` || ' ' || `c`.`last_name`) END,
    'contact', trim(`c`.`first_name` || ' ' || `c`.`last_name`),
    'email', `c`.`email`,
    'address', json(coalesce(`billing_invoices`.`billing_address`, `c`.`billing_address`)),
    'vatNumber', NULL,
    'vatNumberValid', json('false')
  )
  FROM `billing_customers` AS `c`
  WHERE `c`.`id` = `billing_invoices`.`customer_id`
)
WHERE `billed_to` IS NULL;

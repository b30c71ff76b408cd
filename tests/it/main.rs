//! The integration suite: one binary, one module per concern.

mod audit;
mod backup;
mod campaigns;
mod cli_adg;
mod cli_campaign;
mod cli_errors;
mod cli_matrix;
mod cli_vsd;
mod crash;
mod fairness_golden;
mod file_safety;
mod hostile;
mod hostile_text;
mod largest;
mod layers;
mod pg_cluster;
mod postgres;
mod props;
mod reliability;
mod rules_doc;
mod sealed;
mod snapshots;
mod store_conformance;
mod support;
mod tamper;
mod transfer;

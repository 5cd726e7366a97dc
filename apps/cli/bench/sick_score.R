# The computation the official SemEval-2014 Task 1 R scorer performs, written for the benchmark
# (read both files, order by pair_ID, accuracy, Pearson, Spearman, MSE on raw scores), so that
# `pnpm bench` can time R beside stseval on the same run. Usage: Rscript sick_score.R RUN GOLD
args <- commandArgs(trailingOnly = TRUE)
run <- read.delim(args[1], sep = "\t", header = TRUE, stringsAsFactors = FALSE)
gold <- read.delim(args[2], sep = "\t", header = TRUE, stringsAsFactors = FALSE)
run <- run[order(run$pair_ID), ]
gold <- gold[order(gold$pair_ID), ]
stopifnot(all(run$pair_ID == gold$pair_ID))
cat(sprintf("accuracy %.10f\n", 100 * mean(run$entailment_judgment == gold$entailment_judgment)))
cat(sprintf("pearson %.15f\n", cor(run$relatedness_score, gold$relatedness_score)))
cat(sprintf("spearman %.15f\n", cor(run$relatedness_score, gold$relatedness_score, method = "spearman")))
cat(sprintf("mse %.15f\n", mean((run$relatedness_score - gold$relatedness_score)^2)))

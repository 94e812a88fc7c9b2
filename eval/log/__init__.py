"""The run folder and what is read back from it alone: its files (`runfolder`), the manifest and its
check (`integrity`), statuses recomputed from evidence (`recompute`), scores (`scoring`) and the
offline audit (`rescore`)."""

#!/bin/sh
# Regenerates the screenshots in docs/screenshots/ from real runs of the
# application (offscreen: no display needed). Run from the top of the
# repository after building with `cmake --preset release && cmake --build --preset release`.
set -eu
app=${PCL_APP:-./build/release/app/pagecache-lab}
out=docs/screenshots
export QT_QPA_PLATFORM=offscreen

# The gallery the application opens on: the lessons by thread first.
"$app" --run-for 0.5 --screenshot "$out/main-window.png"
cp "$out/main-window.png" "$out/gallery-lessons.png"

# Step 1 of a lesson, the lesson dock beside the views on 1280 x 720: the
# step pauses itself once pagecache_lock has been contended 50 times.
"$app" --lesson 2002-one-global-hash-lock --step 1 --run-for 6 --screenshot "$out/lesson-global-lock-step.png"

# The radix-tree pagecache thread (2002): four CPUs, one global hash lock,
# slowed to 2000 operations per second per CPU with each lock held 20 us
# longer, so the contention shows.
"$app" --scenario 2002-global-hash-lock --set pacing.ops_per_second=2000 \
    --set pacing.hold_stretch_ns=20000 --run-for 4 --screenshot "$out/run-global-hash-lock.png"

# The same workload on a radix tree per file: the per-file locks never contend.
"$app" --scenario 2002-radix-tree-per-file --set pacing.ops_per_second=2000 \
    --set pacing.hold_stretch_ns=20000 --run-for 4 --screenshot "$out/run-radix-tree-per-file.png"

# The structure views, each in front (--view), from real runs.
"$app" --scenario 2002-radix-tree-per-file --set index.scheme=pernode --set pacing.ops_per_second=2000 \
    --set pacing.hold_stretch_ns=20000 --view radix --run-for 4 --screenshot "$out/view-radix.png"
"$app" --scenario 2002-global-hash-lock --set index.scheme=hashed --set pacing.ops_per_second=2000 \
    --set pacing.hold_stretch_ns=20000 --view hash --run-for 4 --screenshot "$out/view-hash.png"
"$app" --scenario 2002-radix-tree-per-file --set index.kind=skiplist --set index.scheme=pernode \
    --set workload.file_pages=40 --set memory_pages=140 --set pacing.ops_per_second=100 --set pacing.hold_stretch_ns=50000 \
    --view skiplist --run-for 4 --screenshot "$out/view-skiplist.png"
"$app" --scenario 2002-readahead-thrashing-ondemand --view readahead --run-for 3 --screenshot "$out/view-readahead.png"
"$app" --scenario 2005-pft-split-page-table-lock --set pacing.ops_per_second=300 \
    --set pacing.hold_stretch_ns=200000 --view pagetable --run-for 4 --screenshot "$out/view-pagetable.png"

# Modelled machines: Lameter's 64-CPU Altix faulting under one
# page_table_lock (every lane red: blocked), and the 8-way Pentium III's
# radix trees taken back to 15.9 modelled ms of a run (run again, the same).
"$app" --scenario 2005-pft-single-page-table-lock --set machine.profile=altix-2005 --set workload.cpus=64 \
    --run-for 4 --screenshot "$out/timeline-64-cpus.png"
"$app" --scenario 2002-radix-tree-per-file --set machine.profile=pentium3-xeon-8way-2002 --view radix \
    --run-for 3 --rewind-to 0.0159 --screenshot "$out/rewound-radix-tree.png"

# A lesson measured (the quick form): the verdicts, and Lameter's pft table
# beside the same runs on the modelled Altix.
"$app" --lesson 2005-split-page-table-locks --measure --screenshot "$out/lesson-lameter-table.png"

echo "wrote the screenshots in $out"

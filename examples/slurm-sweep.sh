#!/usr/bin/env bash
# A saturn parameter sweep on a Slurm cluster, over MPI: rank 0 hands the
# points out one at a time as the other ranks ask and writes the CSV; every
# other rank runs one point at a time.
#
#   sbatch examples/slurm-sweep.sh SPEC.ini OUT.csv      (from the source tree)
#
#SBATCH --job-name=saturn-sweep
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=32
#SBATCH --time=04:00:00
#SBATCH --output=saturn-sweep-%j.log
#
# One task per core: the workers are the tasks but rank 0, which mostly
# sleeps (add --overcommit to give it no core of its own).
#
# Resume: rows are written and flushed as they arrive, so when the job ends
# early (time limit, scancel, a node lost) submit the same command again: the
# points already in OUT.csv are skipped and a partial last line is dropped;
# only the points that were running are lost. To chain the resubmission:
#   sbatch --dependency=afternotok:<jobid> examples/slurm-sweep.sh SPEC.ini OUT.csv
# When every point is in, OUT.csv is rewritten sorted by point: the file one
# process writes (saturn sweep SPEC.ini --csv OUT.csv), but for wall_seconds.
# Never run two jobs on one CSV at the same time.
#
# Needs saturn built with Open MPI (CMake finds libopenmpi-dev) and SPEC and
# OUT on a filesystem every node sees: every rank reads the spec, rank 0
# alone writes the CSV.
set -euo pipefail
spec=${1:?usage: sbatch slurm-sweep.sh SPEC.ini OUT.csv}
csv=${2:?usage: sbatch slurm-sweep.sh SPEC.ini OUT.csv}
saturn=${SATURN:-$PWD/build/saturn}

# --mpi=pmix: without it (where Slurm's default is none) every task would be
# a whole sweep of its own; saturn refuses to start that way.
# --kill-on-bad-exit: a rank that dies ends the job, rather than leaving
# rank 0 waiting for it (mpirun does this by itself).
srun --mpi=pmix --kill-on-bad-exit=1 "$saturn" sweep "$spec" --csv "$csv"

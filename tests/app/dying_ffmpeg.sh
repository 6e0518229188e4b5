#!/bin/sh
# Stands in for ffmpeg in cli.movie_ffmpeg_dies_exits_one (installed as "ffmpeg" in a folder put first on PATH): it
# passes the trial encodes, then takes part of the first frame and dies as an encoder would on a full disk.
case " $* " in *" lavfi "*) exit 0 ;; esac
head -c 100000 > /dev/null
echo "simulated encoder crash" >&2
exit 3

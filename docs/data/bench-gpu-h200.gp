# gnuplot docs/data/bench-gpu-h200.gp: time against device working set, both relative to cuSPARSE
# (right products, FP32), after the paper's Figure 5. Input: docs/data/bench-gpu-h200-kernels.csv
# (the graphs measured with the plus kernels; the first run is in docs/data/bench-gpu-h200.csv).
set terminal svg size 720,480 font "sans,11"
set output "docs/bench-gpu-h200.svg"
set datafile separator ","
set logscale xy
set xlabel "device working set / cuSPARSE's"
set ylabel "time per right product / cuSPARSE's"
set grid
set key top left
set xrange [0.1:10]
set yrange [0.1:30]
plot "docs/data/bench-gpu-h200-kernels.csv" every ::1 using ($10/$12):($17/$19) with points pt 7 ps 1.2 title "k² (tree only)", \
     "" every ::1 using ($11/$12):($18/$19) with points pt 5 ps 1.2 title "k²+F", \
     "" every ::1 using ($13/$12):($20/$19) with points pt 9 ps 1.2 title "bCSR", \
     "" every ::1 using ($11/$12):($18/$19):1 with labels offset 0,0.8 font ",8" notitle, \
     1 with lines lc "gray" notitle

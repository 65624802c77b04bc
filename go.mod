module github.com/musket-verify/musket

go 1.26.8
